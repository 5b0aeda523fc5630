import { decodeStrictly } from "../../core/common/decodeStrictly.js";

/** One line of a byte stream. */
export interface StreamLine {
  /** 1-based line number in the object. */
  line: number;
  /**
   * The line as UTF-8 text, without its `\n` (or `\r\n`); empty when the line was too long or is
   * not valid UTF-8.
   */
  text: string;
  /** Byte offset just past the line's end (its newline included): where the next line starts. */
  nextOffset: number;
  /** Set when the line was longer than `maxLineBytes` (its text is then dropped). */
  tooLong: boolean;
  /**
   * Set when the line's bytes are not valid UTF-8 (its text is then empty): decoding never puts
   * U+FFFD in for them, so two lines that differ only in invalid bytes never read alike.
   */
  invalidUtf8: boolean;
}

/**
 * Splits a stream of bytes into lines with exact byte offsets, holding at most one line
 * (`maxLineBytes`) in memory whatever the object's size. Written by hand because `readline` does
 * not report byte offsets, which a checkpoint needs to resume with a ranged GetObject. Lines are
 * split on the newline byte and each line's bytes decoded whole, so a character split across
 * chunks decodes, and a line that is not valid UTF-8 is reported as such (`invalidUtf8`).
 *
 * @param firstLine - the number of the first line read (when resuming). Default 1.
 * @param startOffset - the byte offset of the first byte read. Default 0.
 */
export async function* splitLines(
  chunks: AsyncIterable<Uint8Array>,
  options: { maxLineBytes: number; firstLine?: number; startOffset?: number },
): AsyncGenerator<StreamLine> {
  let line = options.firstLine ?? 1;
  let offset = options.startOffset ?? 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  const finish = (lineBytes: number): StreamLine => {
    const joined = tooLong ? Buffer.alloc(0) : Buffer.concat(pending);
    const body = joined.at(-1) === 0x0d ? joined.subarray(0, -1) : joined;
    offset += lineBytes;
    const text = tooLong ? "" : decodeStrictly(body);
    const result = {
      line,
      text: text ?? "",
      nextOffset: offset,
      tooLong,
      invalidUtf8: text === undefined,
    };
    line += 1;
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    return result;
  };
  let lineBytes = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, start)) {
      append(chunk.subarray(start, at));
      lineBytes += at - start + 1;
      yield finish(lineBytes);
      lineBytes = 0;
      start = at + 1;
    }
    append(chunk.subarray(start));
    lineBytes += chunk.length - start;
  }
  if (lineBytes > 0) yield finish(lineBytes);

  function append(part: Uint8Array): void {
    if (part.length === 0 || tooLong) return;
    if (pendingBytes + part.length > options.maxLineBytes) {
      tooLong = true;
      pending = [];
      pendingBytes = 0;
      return;
    }
    pending.push(Buffer.from(part));
    pendingBytes += part.length;
  }
}
