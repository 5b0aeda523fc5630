/** The ingest state machine's loop on this machine, over a fake ingest function. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { IngestCheckpoint, IngestResult } from "../../../functions/ingest/index.js";
import { IngestWorkflowError } from "../../../local/errors.js";
import { IngestTrigger } from "../../../local/ingest/IngestTrigger.js";
import { runIngestWorkflow } from "../../../local/ingest/runIngestWorkflow.js";

/** A fake ingest function over an object of `lines` lines, reading `perCall` lines per invocation. */
function fakeIngest(lines: number, perCall: number, inputs: unknown[]) {
  return async (input: unknown): Promise<IngestResult> => {
    inputs.push(input);
    const from = (input as Partial<IngestCheckpoint>).line ?? 1;
    const to = Math.min(lines, from + perCall - 1);
    const next: IngestCheckpoint | undefined =
      to < lines ? { bucket: "b", key: "k.jsonl", line: to + 1, byteOffset: to * 10 } : undefined;
    return {
      objects: [
        {
          bucket: "b",
          key: "k.jsonl",
          linesRead: to - from + 1,
          sent: to - from + 1,
          rejected: 0,
          failed: [],
          ...(next ? { next } : {}),
        },
      ],
      pending: next ? [next] : [],
    };
  };
}

describe("runIngestWorkflow", () => {
  it("invokes again from each pending checkpoint until none is left", async () => {
    const inputs: unknown[] = [];
    const event = { source: "aws.s3" };
    const result = await runIngestWorkflow(event, {
      invoke: fakeIngest(25, 10, inputs),
      region: "us-east-1",
    });
    assert.deepEqual(result, { linesRead: 25, sent: 25, rejected: 0, failed: 0, invocations: 3 });
    assert.equal(inputs[0], event);
    assert.deepEqual(
      inputs.slice(1).map((input) => (input as IngestCheckpoint).line),
      [11, 21],
    );
  });

  it("gives up naming the checkpoint when invocations keep ending where they started", async () => {
    const stuck: IngestCheckpoint = { bucket: "b", key: "k.jsonl", line: 7, byteOffset: 60 };
    let calls = 0;
    const invoke = async (): Promise<IngestResult> => {
      calls += 1;
      return {
        objects: [
          {
            bucket: "b",
            key: "k.jsonl",
            linesRead: 1,
            sent: 0,
            rejected: 0,
            failed: [{ line: 7, id: "x", code: "ServiceUnavailable", message: "down", permanent: false }],
            next: stuck,
          },
        ],
        pending: [stuck],
      };
    };
    await assert.rejects(
      runIngestWorkflow({}, { invoke, region: "us-east-1", maxStalledInvocations: 3 }),
      (error: unknown) =>
        error instanceof IngestWorkflowError &&
        error.why === "stalled" &&
        error.pending[0]?.line === 7 &&
        /s3:\/\/b\/k\.jsonl from line 7/.test(error.message),
    );
    assert.equal(calls, 4);
  });

  it("stops between invocations when its signal is aborted", async () => {
    const abort = new AbortController();
    const inputs: unknown[] = [];
    const inner = fakeIngest(100, 10, inputs);
    const invoke = async (input: unknown): Promise<IngestResult> => {
      const result = await inner(input);
      if (inputs.length === 2) abort.abort();
      return result;
    };
    await assert.rejects(
      runIngestWorkflow({}, { invoke, region: "us-east-1", signal: abort.signal }),
      (error: unknown) =>
        error instanceof IngestWorkflowError && error.why === "stopped" && error.pending[0]?.line === 21,
    );
    assert.equal(inputs.length, 2);
  });
});

describe("IngestTrigger", () => {
  const created = (key: string, bucket = "ingest") => ({
    bucket,
    key,
    reason: "PutObject" as const,
    time: new Date(),
  });

  it("matches the deployed rule's pattern: the bucket, then <prefix>*<suffix>", () => {
    const trigger = new IngestTrigger({
      bucket: "ingest",
      region: "us-east-1",
      invoke: fakeIngest(1, 1, []),
    });
    assert.equal(trigger.matches("ingest", "incoming/a.jsonl"), true);
    assert.equal(trigger.matches("ingest", "incoming/.jsonl"), true);
    assert.equal(trigger.matches("ingest", "incoming/a.json"), false);
    assert.equal(trigger.matches("ingest", "other/a.jsonl"), false);
    assert.equal(trigger.matches("results", "incoming/a.jsonl"), false);
    // The prefix and suffix may not overlap: "incoming/" + "*" + ".jsonl" needs both whole.
    const short = new IngestTrigger({
      bucket: "ingest",
      region: "us-east-1",
      prefix: "in/x",
      suffix: "x.jsonl",
      invoke: fakeIngest(1, 1, []),
    });
    assert.equal(short.matches("ingest", "in/x.jsonl"), false);
  });

  it("runs one workflow per matching object, in order, and reports each", async () => {
    const inputs: unknown[] = [];
    const reports: string[] = [];
    const trigger = new IngestTrigger({
      bucket: "ingest",
      region: "us-east-1",
      invoke: fakeIngest(3, 10, inputs),
      onIngested: (report) => reports.push(`${report.key}:${report.result?.sent ?? "failed"}`),
    });
    assert.ok(trigger.notify(created("incoming/1.jsonl")));
    assert.equal(trigger.notify(created("elsewhere/2.jsonl")), undefined);
    assert.ok(trigger.notify(created("incoming/3.jsonl")));
    await trigger.idle();
    assert.deepEqual(reports, ["incoming/1.jsonl:3", "incoming/3.jsonl:3"]);
    assert.equal(trigger.busy, 0);
    await trigger.stop();
    assert.equal(trigger.notify(created("incoming/4.jsonl")), undefined);
  });
});

describe("the local ingest rule's defaults", () => {
  it("are the CDK app's ingestPrefix and ingestSuffix", async () => {
    const { INFRA_KNOBS } = await import("../../../infra/config/infraKnobs.js");
    const { DEFAULT_INGEST_PREFIX, DEFAULT_INGEST_SUFFIX } = await import(
      "../../../local/ingest/IngestTrigger.js"
    );
    const knob = (name: string) => INFRA_KNOBS.find((entry) => entry.name === name)?.defaultValue;
    assert.equal(knob("ingestPrefix"), DEFAULT_INGEST_PREFIX);
    assert.equal(knob("ingestSuffix"), DEFAULT_INGEST_SUFFIX);
  });
});
