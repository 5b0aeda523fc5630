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
});
