/**
 * Shared types of the wire module: JSON values as JavaScript holds them, and JSON text as written
 * (an ordered tree that keeps key order and number spelling).
 */

/** Any JSON value, as `JSON.parse` returns it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object. Its keys keep insertion order, except that JavaScript lists integer-like keys first. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** `[start, end)` offsets of a node in the text it was parsed from, in UTF-16 code units. */
export interface JsonSpan {
  start: number;
  end: number;
}

/** One `"key": value` member of an object, in the order written. */
export interface JsonMember {
  key: string;
  value: JsonNode;
}

/**
 * A JSON value as written: objects keep their members in written order (repeats included when the
 * parser was told to report rather than refuse them), numbers keep their literal (`2.0`, `1e5`,
 * `12345678901234567890123`), every node knows where it is in the text.
 */
export type JsonNode =
  | ({ kind: "object"; members: JsonMember[] } & JsonSpan)
  | ({ kind: "array"; items: JsonNode[] } & JsonSpan)
  | ({ kind: "string"; value: string } & JsonSpan)
  | ({ kind: "number"; raw: string } & JsonSpan)
  | ({ kind: "boolean"; value: boolean } & JsonSpan)
  | ({ kind: "null" } & JsonSpan);

/** One step of a path into a JSON value: an object key or an array index. */
export type JsonPathSegment = string | number;

/**
 * How a request schema is built: the limits it checks and the texts it refuses. A server passes
 * its own (capped by the loaded model); a client that leaves them out checks the format's own limits.
 */
export interface RequestSchemaOptions {
  /** Most options of one SemIf decision; also caps System One labels and levels (with the API's 255). Default 255. */
  maxOptions?: number;
  /** Why `maxOptions` is what it is, shown in messages. Default `the API's limit`. */
  maxOptionsReason?: string;
  /** Most decisions of a `decisions` request, or questions of a System One request. Default 64. */
  maxQuestions?: number;
  /** Most tokens a chat completion may generate (`max_tokens`). Default 4096. */
  maxCompletionTokens?: number;
  /**
   * Finds text a caller may not send inside any text the model reads (the adapter passes its
   * chat-control tokens, e.g. `<|im_start|>`), returning the first one found. Default: none refused.
   */
  findReservedText?: (text: string) => string | undefined;
}
