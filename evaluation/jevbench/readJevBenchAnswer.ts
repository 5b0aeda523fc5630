import type { SystemOneAnswer } from "../../adapter/engine/systemOne/systemOneTypes.js";

/** How far a distribution's sum may stray from 1, as JevBench checks it. */
export const JEVBENCH_SUM_TOLERANCE = 1e-3;

/**
 * A System One answer as JevBench reads it: a distribution over exactly the case's labels (noul:
 * `yes` = P(yes), `no` = 1 − P(yes)), every value a finite number in [0, 1], summing to 1 within
 * {@link JEVBENCH_SUM_TOLERANCE}. Values are kept as given (no renormalisation).
 *
 * @returns the distribution in label order, or the reason it is not valid
 */
export function readJevBenchAnswer(
  answer: SystemOneAnswer | undefined,
  labels: readonly string[],
): { ok: true; distribution: Record<string, number> } | { ok: false; reason: string } {
  if (answer === undefined) return { ok: false, reason: "no answer" };
  const given: Record<string, unknown> =
    answer.type === "noul" ? { yes: answer.noul, no: 1 - answer.noul } : { ...answer.probabilities };
  const keys = Object.keys(given);
  const missing = labels.filter((label) => !Object.hasOwn(given, label));
  const extra = keys.filter((key) => !labels.includes(key));
  if (missing.length > 0 || extra.length > 0) {
    return {
      ok: false,
      reason: `label keys mismatch: missing ${missing.join(",")} extra ${extra.join(",")}`,
    };
  }
  const distribution: Record<string, number> = {};
  let sum = 0;
  for (const label of labels) {
    const value = given[label];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
      return { ok: false, reason: `probability of ${label} is not a number in [0, 1]` };
    }
    distribution[label] = value;
    sum += value;
  }
  if (Math.abs(sum - 1) > JEVBENCH_SUM_TOLERANCE) return { ok: false, reason: `probabilities sum to ${sum}` };
  return { ok: true, distribution };
}
