import { JsonText } from "../../../contract/wire/JsonText.js";
import { pythonFloatRepr } from "../../../contract/wire/pythonFloatRepr.js";
import { pythonJsonString } from "../../../contract/wire/pythonJsonString.js";
import type { JsonValue } from "../types.js";

export { pythonJsonString } from "../../../contract/wire/pythonJsonString.js";

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
 * What cannot match for a plain value: JSON parsed in JavaScript no longer knows that `1.0` was
 * written with a fraction (Python would print `1.0`, this prints `1`), and JavaScript objects list
 * integer-like keys (`"2"`) before other keys whatever their order in the source. A {@link JsonText}
 * keeps both and is printed exactly as Python would print its text (`JsonText.toPython()`).
 *
 * @example pythonJsonDumps({ a: [1, "é"] }) === '{"a": [1, "é"]}'
 */
export function pythonJsonDumps(value: JsonValue | JsonText): string {
  if (value === null) return "null";
  if (value instanceof JsonText) return value.toPython();
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

function pythonNumber(value: number): string {
  if (!Number.isFinite(value)) {
    throw new RangeError(`cannot serialise ${value} as JSON`);
  }
  return Number.isSafeInteger(value) ? String(value) : pythonFloatRepr(value);
}
