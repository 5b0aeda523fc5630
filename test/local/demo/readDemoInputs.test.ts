/** What the demo sends: every work-item line and EventBridge event as written; the batch file for S3. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readDemoInputs } from "../../../local/demo/readDemoInputs.js";

describe("readDemoInputs", () => {
  let folder: string;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "demo-inputs-"));
    await mkdir(join(folder, "work-items"));
    await mkdir(join(folder, "eventbridge"));
    await mkdir(join(folder, "sqs"));
    await writeFile(
      join(folder, "work-items", "tickets.jsonl"),
      '{"id": "a", "state": {"2024": 1, "x": 2.0}}\n\nnot json\n',
    );
    await writeFile(join(folder, "work-items", "documents.jsonl"), '{"id": "d1"}\n{"id": "d2"}\n');
    await writeFile(join(folder, "eventbridge", "incident.json"), '{\n  "source": "acme.monitoring"\n}\n');
    await writeFile(join(folder, "sqs", "batch.json"), '{"Records": []}');
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("sends each non-blank line and each EventBridge event with its text unchanged", async () => {
    const inputs = await readDemoInputs(folder);
    assert.deepEqual(inputs.messages, [
      { body: '{"id": "a", "state": {"2024": 1, "x": 2.0}}', origin: "tickets.jsonl:1" },
      { body: "not json", origin: "tickets.jsonl:3" },
      { body: '{\n  "source": "acme.monitoring"\n}', origin: "incident.json" },
    ]);
  });

  it("puts the batch file into S3 for ingest, and leaves the handler-level SQS events alone", async () => {
    const inputs = await readDemoInputs(folder);
    assert.deepEqual(inputs.objects, [
      { key: "incoming/documents.jsonl", body: '{"id": "d1"}\n{"id": "d2"}\n', lines: 2 },
    ]);
  });
});
