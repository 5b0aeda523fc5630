/**
 * The one reader of the numbers the owner's commands take in flags (`--instance-price`,
 * `--threshold`, …): decimal notation only, within a stated range. `Number()` alone would take
 * `0x10` as 16, `""` as 0 and `1e400` as Infinity.
 */
import { UsageError } from "./errors.js";

/** The range a number flag takes. */
export interface NumberFlagRange {
  /** The smallest value taken. */
  min: number;
  /** The largest value taken. */
  max: number;
  /** Whole numbers only (digits, no sign, no exponent). Default false. */
  integer?: boolean;
  /** What the number counts, for the message (`US dollars per hour`). */
  unit?: string;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const WHOLE = /^\d+$/;

/**
 * Reads a flag's text as a decimal number within `range`.
 *
 * @throws UsageError naming the flag, the notation and the range it takes, and what it got.
 * @example readNumberFlag("--instance-price", "1.006", { min: 0, max: 10_000 }) // 1.006
 */
export function readNumberFlag(flag: string, text: string, range: NumberFlagRange, usage?: string): number {
  const value = Number(text);
  if (!(range.integer === true ? WHOLE : DECIMAL).test(text) || !(value >= range.min && value <= range.max)) {
    const what = range.integer === true ? "a whole number" : "a decimal number";
    const unit = range.unit === undefined ? "" : ` (${range.unit})`;
    throw new UsageError(`${flag} must be ${what} from ${range.min} to ${range.max}${unit}, got "${text}"`, {
      usage,
    });
  }
  return value;
}
