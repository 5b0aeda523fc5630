/**
 * Names a JSON value's type for messages: `an array`, `null`, `a number`, `an object`, `nothing`
 * (for a missing value).
 */
export function describeType(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
