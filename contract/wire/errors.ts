/** Errors of the wire module. */
import type { JsonPathSegment } from "./types.js";

/** What is wrong with a JSON text. */
export type JsonTextErrorKind = "syntax" | "duplicate-key" | "too-deep";

/**
 * JSON text that cannot be used: not strict JSON (RFC 8259), an object key written twice, or
 * arrays/objects nested deeper than allowed. Carries where, as data: the character `position`,
 * its 1-based `line` and `column`, and the `path` of the value being read (for a duplicate key,
 * the object that holds it; the key itself is in `key`).
 *
 * @example
 * try { parseJsonText('{"a": 1, "a": 2}') } catch (error) {
 *   // error.kind === "duplicate-key", error.path = [], error.key === "a", error.line === 1
 * }
 */
export class JsonTextError extends Error {
  override name = "JsonTextError";
  constructor(
    /** The class of problem, for callers that map problems to responses. */
    readonly kind: JsonTextErrorKind,
    /** What is wrong, without the location, e.g. `duplicate key "a"`. */
    readonly reason: string,
    /** Offset in the text (UTF-16 code units) where the problem starts. */
    readonly position: number,
    /** 1-based line of `position`. */
    readonly line: number,
    /** 1-based column of `position` (UTF-16 code units from the line's start). */
    readonly column: number,
    /** Path of the value being read when the problem was found. */
    readonly path: readonly JsonPathSegment[],
    /** The repeated key, for `duplicate-key`. */
    readonly key?: string,
  ) {
    super(
      `${reason} at line ${line}, column ${column}${path.length > 0 ? ` (in ${describePath(path)})` : ""}`,
    );
  }
}

function describePath(path: readonly JsonPathSegment[]): string {
  return path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
}
