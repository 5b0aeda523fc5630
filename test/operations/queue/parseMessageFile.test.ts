import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseMessageFile } from "../../../operations/queue/parseMessageFile.js";

describe("parseMessageFile", () => {
  it("keeps each line's text exactly as written, with its line number and id", () => {
    const text =
      '{"id":"a","policy":"p","state":{"2024":1,"x":2.0}}\n\n{"id": "b", "policy": "p", "state": "s"}\r\n';

    const file = parseMessageFile(text, { format: "lines" });

    assert.deepEqual(file.refused, []);
    assert.deepEqual(file.messages, [
      { line: 1, body: '{"id":"a","policy":"p","state":{"2024":1,"x":2.0}}', id: "a" },
      { line: 3, body: '{"id": "b", "policy": "p", "state": "s"}', id: "b" },
    ]);
  });

  it("refuses each line whose bytes are not UTF-8, naming the line, and keeps the others", () => {
    const bytes = Buffer.concat([
      Buffer.from('\uFEFF{"id": "ok-\u00e9"}\n{"id": "inv-'),
      Buffer.from([0xff]),
      Buffer.from('"}\r\n{"id": "inv-'),
      Buffer.from([0xfe]),
      Buffer.from('"}\n{"id": "last"}\n'),
    ]);

    const file = parseMessageFile(bytes, { format: "lines" });

    assert.deepEqual(
      file.messages.map((message) => [message.line, message.id]),
      [
        [1, "ok-\u00e9"],
        [4, "last"],
      ],
    );
    assert.deepEqual(
      file.refused.map((entry) => [entry.line, entry.code]),
      [
        [2, "InvalidUtf8"],
        [3, "InvalidUtf8"],
      ],
    );
    assert.match(file.refused[0]?.message ?? "", /not valid UTF-8/);
  });

  it("refuses a document holding bytes that are not UTF-8, naming their line, and sends none of it", () => {
    const bytes = Buffer.concat([
      Buffer.from('[{"id": "a"},\n {"id": "b'),
      Buffer.from([0xc3]),
      Buffer.from('"}]'),
    ]);

    const file = parseMessageFile(bytes, { format: "document" });

    assert.deepEqual(file.messages, []);
    assert.deepEqual(
      file.refused.map((entry) => [entry.line, entry.code]),
      [[2, "InvalidUtf8"]],
    );
  });

  it("reads valid UTF-8 bytes as it reads the same text (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 20 }), { maxLength: 6 }), (rows) => {
        const text = rows.join("\n");
        for (const format of ["lines", "document"] as const) {
          assert.deepEqual(
            parseMessageFile(Buffer.from(text), { format }),
            parseMessageFile(text, { format }),
          );
        }
      }),
    );
  });

  it("drops a byte order mark at the start of a file, in both formats, and keeps one elsewhere", () => {
    const lines = parseMessageFile('\uFEFF{"id":"a"}\n{"id":"b","note":"\uFEFF"}\n', { format: "lines" });
    const document = parseMessageFile('\uFEFF[{"id":"a"}]', { format: "document" });

    assert.deepEqual(lines.refused, []);
    assert.deepEqual(
      lines.messages.map((message) => message.body),
      ['{"id":"a"}', '{"id":"b","note":"\uFEFF"}'],
    );
    assert.deepEqual(document.refused, []);
    assert.deepEqual(document.messages, [{ line: 1, body: '{"id":"a"}', id: "a" }]);
  });

  it("refuses a line that is not JSON or repeats a key, naming the line, and keeps the others", () => {
    const text = ['{"id":"a"}', "{not json", '{"id":"c","id":"d"}', '{"id":"e"}'].join("\n");

    const file = parseMessageFile(text, { format: "lines" });

    assert.deepEqual(
      file.messages.map((message) => message.line),
      [1, 4],
    );
    assert.deepEqual(
      file.refused.map((entry) => [entry.line, entry.code]),
      [
        [2, "InvalidJson"],
        [3, "InvalidJson"],
      ],
    );
    assert.match(file.refused[1]?.message ?? "", /duplicate key "id"/);
  });

  it("refuses a message longer than the limit", () => {
    const file = parseMessageFile('{"id":"big","state":"xxxxxxxxxx"}\n{"id":"ok"}', {
      format: "lines",
      maxMessageBytes: 20,
    });

    assert.deepEqual(file.refused, [
      {
        line: 1,
        id: "big",
        code: "MessageTooLong",
        message: "the message is 33 bytes, more than the 20 a message may have",
      },
    ]);
    assert.deepEqual(file.messages, [{ line: 2, body: '{"id":"ok"}', id: "ok" }]);
  });

  it("reads a document as one message, or an array as one message per element, cut as written", () => {
    const event =
      '{\n  "id": "e-1",\n  "detail-type": "Incident",\n  "source": "ops",\n  "detail": {"sev": 2.0}\n}';

    assert.deepEqual(parseMessageFile(`${event}\n`, { format: "document" }).messages, [
      { line: 1, body: event, id: "e-1" },
    ]);
    const array = parseMessageFile(`[\n${event},\n{"id": "e-2"}, 3\n]`, { format: "document" });
    assert.deepEqual(array.messages, [
      { line: 2, body: event, id: "e-1" },
      { line: 8, body: '{"id": "e-2"}', id: "e-2" },
    ]);
    assert.deepEqual(
      array.refused.map((entry) => [entry.line, entry.code]),
      [[8, "InvalidJson"]],
    );
  });

  it("gives back every JSON object line unchanged, whatever its content (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 8 }), (objects) => {
        const lines = objects.map((object) => JSON.stringify(object));
        const file = parseMessageFile(lines.join("\n"), { format: "lines" });

        assert.deepEqual(file.refused, []);
        assert.deepEqual(
          file.messages.map((message) => message.body),
          lines,
        );
      }),
    );
  });
});
