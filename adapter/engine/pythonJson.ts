import type { JsonValue } from "./types.js";

/**
 * Serialises a JSON value byte-for-byte the way Python's `json.dumps(value, ensure_ascii=False)`
 * does, so prompts rendered here hash the same as the SemIf sample's.
 *
 * - Separators `", "` and `": "`; keys in insertion order; non-ASCII characters kept as they are.
 * - Strings escape `"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f` and other control characters below
 *   U+0020 as `\u00XX` (lower-case hex), exactly as Python does; U+007F and above are kept.
 * - Numbers: safe integers print as integers; other numbers use Python's float `repr` (shortest
 *   round-trip digits, exponent form below 1e-4 and from 1e16, e.g. `1e-07`, `1e+16`, `0.1`).
 *
 * What cannot match: JSON parsed in JavaScript no longer knows that `1.0` was written with a
 * fraction (Python would print `1.0`, this prints `1`), and JavaScript objects list integer-like
 * keys (`"2"`) before other keys whatever their order in the source.
 *
 * @example pythonJsonDumps({ a: [1, "é"] }) === '{"a": [1, "é"]}'
 */
export function pythonJsonDumps(value: JsonValue): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return pythonJsonString(value);
    case "number":
      return pythonNumber(value);
    case "boolean":
      return value ? "true" : "false";
  }
  if (Array.isArray(value)) {
    return `[${value.map(pythonJsonDumps).join(", ")}]`;
  }
  const entries = Object.entries(value).map(
    ([key, item]) => `${pythonJsonString(key)}: ${pythonJsonDumps(item)}`,
  );
  return `{${entries.join(", ")}}`;
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped here
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/g;

/** A JSON string literal as Python's `json.dumps(s, ensure_ascii=False)` writes it. */
export function pythonJsonString(text: string): string {
  const escaped = text.replace(
    NEEDS_ESCAPE,
    (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `"${escaped}"`;
}

function pythonNumber(value: number): string {
  if (!Number.isFinite(value)) {
    throw new RangeError(`cannot serialise ${value} as JSON`);
  }
  if (Number.isSafeInteger(value)) return String(value);
  // Shortest round-trip digits, then laid out by Python's float repr rules.
  const [mantissa = "0", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const expSign = exponent < 0 ? "-" : "+";
    return `${sign}${digits[0]}${fraction}e${expSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) {
    return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  }
  const integerDigits = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fractionDigits = digits.slice(exponent + 1);
  return `${sign}${integerDigits}.${fractionDigits.length > 0 ? fractionDigits : "0"}`;
}
