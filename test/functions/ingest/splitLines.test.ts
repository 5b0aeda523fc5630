import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { splitLines } from "../../../functions/ingest/splitLines.js";

async function* chunked(bytes: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    yield bytes.subarray(at, at + size);
    at += size;
  }
  if (at < bytes.length) yield bytes.subarray(at);
}

async function collect(bytes: Buffer, sizes: number[], maxLineBytes = 1024) {
  const lines = [];
  for await (const line of splitLines(chunked(bytes, sizes), { maxLineBytes })) lines.push(line);
  return lines;
}

describe("splitLines", () => {
  it("splits on LF and CRLF with exact byte offsets, multi-byte text included", async () => {
    const text = 'a\r\n{"é": 1}\n\nlast';
    const lines = await collect(Buffer.from(text), [2, 3, 1, 100]);
    assert.deepEqual(
      lines.map((line) => [line.line, line.text, line.nextOffset]),
      [
        [1, "a", 3],
        [2, '{"é": 1}', 13],
        [3, "", 14],
        [4, "last", 18],
      ],
    );
  });

  it("marks a line longer than the limit and goes on with the next", async () => {
    const lines = await collect(Buffer.from(`${"x".repeat(50)}\nok\n`), [7], 10);
    assert.deepEqual(
      lines.map((line) => [line.tooLong, line.text]),
      [
        [true, ""],
        [false, "ok"],
      ],
    );
  });

  it("refuses a line that is not valid UTF-8 rather than replacing its bytes, and goes on with the next", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"id": "inv-'),
      Buffer.from([0xff]),
      Buffer.from('"}\n{"id": "inv-'),
      Buffer.from([0xfe]),
      Buffer.from('"}\n{"id": "ok-\u00e9"}\n'),
    ]);

    const lines = await collect(bytes, [1, 2, 3, 5, 8, 13]);

    assert.deepEqual(
      lines.map((line) => [line.line, line.invalidUtf8, line.text, line.nextOffset]),
      [
        [1, true, "", 16],
        [2, true, "", 32],
        [3, false, '{"id": "ok-\u00e9"}', bytes.length],
      ],
    );
    assert.ok(lines.every((line) => !line.text.includes("\uFFFD")));
  });

  it("decodes a multi-byte character split across chunks, and keeps a byte order mark for the caller", async () => {
    const bytes = Buffer.from("\uFEFF\u20AC\u{1F600}\nx\n");

    const lines = await collect(bytes, [1, 1, 1, 1, 1, 1, 1, 1]);

    assert.deepEqual(
      lines.map((line) => [line.invalidUtf8, line.text]),
      [
        [false, "\uFEFF\u20AC\u{1F600}"],
        [false, "x"],
      ],
    );
  });

  it("gives the same lines and offsets however the bytes are chunked (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "grapheme", maxLength: 12 }), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 30 }),
        async (rows, sizes) => {
          const bytes = Buffer.from(rows.map((row) => row.replaceAll("\n", " ")).join("\n"));
          const whole = await collect(bytes, [bytes.length + 1], 4096);
          const pieces = await collect(bytes, sizes, 4096);
          assert.deepEqual(pieces, whole);
          const last = whole.at(-1);
          assert.equal(last?.nextOffset ?? 0, bytes.length);
        },
      ),
    );
  });

  it("gives the same lines, valid or not, however arbitrary bytes are chunked (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 64 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 30 }),
        async (raw, sizes) => {
          const bytes = Buffer.from(raw);
          const whole = await collect(bytes, [bytes.length + 1], 4096);
          const pieces = await collect(bytes, sizes, 4096);
          assert.deepEqual(pieces, whole);
          let start = 0;
          for (const line of whole) {
            let body = bytes.subarray(start, line.nextOffset);
            if (body.at(-1) === 0x0a) body = body.subarray(0, -1);
            if (body.at(-1) === 0x0d) body = body.subarray(0, -1);
            // Valid lines read back to their own bytes (nothing replaced); the others have no text.
            if (line.invalidUtf8) assert.equal(line.text, "");
            else assert.deepEqual(Buffer.from(line.text), Buffer.from(body));
            start = line.nextOffset;
          }
        },
      ),
    );
  });
});
