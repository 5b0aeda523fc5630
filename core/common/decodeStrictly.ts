const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The bytes as text, or undefined when they are not valid UTF-8 (a byte order mark is kept, for
 * the caller to drop where it means nothing): bytes are refused, never replaced with U+FFFD. Used
 * wherever outside bytes become text: a line of a JSONL file (ingest's line splitter, offline
 * classification, a message file), a base64 request body (the front door, the review console's
 * API) and an item id in a path.
 *
 * @example
 * decodeStrictly(new Uint8Array([0x68, 0x69])); // "hi"
 * decodeStrictly(new Uint8Array([0xff])); // undefined
 */
export function decodeStrictly(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}
