/**
 * Chat-control text in a policy. A policy's instructions, labels and descriptions are sent to the
 * model, where such text would forge prompt structure; the adapter refuses it in every request, so
 * a policy holding it would have every item rejected at run time. The loader refuses it instead,
 * with the field. The reserved list is the adapter's own (`adapter/wire/reservedText.ts`, a module
 * with no runtime imports, so the policy bundle stays free of the engine and the server).
 */
import { findReservedToken } from "../../contract/wire/reservedText.js";

/** One string or key of a parsed document that holds reserved text. */
export interface ReservedTextFound {
  path: (string | number)[];
  token: string;
  /** True when the key at `path` (not its value) holds it. */
  key: boolean;
}

/**
 * Every string and map key of a parsed YAML document that holds reserved text, in document order.
 * Walks plain values only (what `toJS` gives); aliases were already bounded by the loader.
 */
export function findReservedTextIn(value: unknown, path: (string | number)[] = []): ReservedTextFound[] {
  if (typeof value === "string") {
    const token = findReservedToken(value);
    return token === undefined ? [] : [{ path, token, key: false }];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => findReservedTextIn(item, [...path, index]));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const token = findReservedToken(key);
    const own = token === undefined ? [] : [{ path: [...path, key], token, key: true }];
    return [...own, ...findReservedTextIn(item, [...path, key])];
  });
}
