import type { JsonValue } from "./types.js";

/** Deepest nesting a mapped value may have (an event's state is a document, not a tower). */
const MAX_DEPTH = 64;

/**
 * Converts a CEL result (cel-js values: bigint ints, doubles, strings, bools, null, arrays, Maps
 * or plain objects, Dates for timestamps) into a JSON value.
 *
 * @throws TypeError naming the first value JSON cannot hold (bytes, types, non-finite doubles,
 *   ints beyond 2^53, non-string map keys)
 */
export function celToJson(value: unknown, depth = 0): JsonValue {
  if (depth > MAX_DEPTH) throw new TypeError(`nested deeper than ${MAX_DEPTH}`);
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${value} is not a JSON number`);
    return value;
  }
  if (typeof value === "bigint") {
    const number = Number(value);
    if (!Number.isSafeInteger(number)) throw new TypeError(`integer ${value} is beyond 2^53`);
    return number;
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => celToJson(item, depth + 1));
  if (value instanceof Map) {
    const entries: [string, JsonValue][] = [];
    for (const [key, item] of value) {
      if (typeof key !== "string") throw new TypeError(`map key ${String(key)} is not a string`);
      entries.push([key, celToJson(item, depth + 1)]);
    }
    return Object.fromEntries(entries);
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        celToJson(item, depth + 1),
      ]),
    );
  }
  throw new TypeError(`a ${Object.prototype.toString.call(value).slice(8, -1)} value is not JSON`);
}
