/**
 * The ingest state machine on this machine: the template's own definition, run by the ASL
 * interpreter over a fake ingest function; an edited definition is what runs.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import {
  checkpointsOfEvent,
  type IngestCheckpoint,
  type IngestResult,
  UnknownIngestInputError,
} from "../../../functions/ingest/index.js";
import { IngestWorkflowError, StackTemplateError } from "../../../local/errors.js";
import { IngestTrigger } from "../../../local/ingest/IngestTrigger.js";
import { runIngestWorkflow } from "../../../local/ingest/runIngestWorkflow.js";
import type { CfnTemplate } from "../../../local/stack/cfnTemplate.js";
import type { IngestPlan } from "../../../local/stack/LocalStackPlan.js";
import { loadStackTemplate } from "../../../local/stack/loadStackTemplate.js";
import { readStackTemplate } from "../../../local/stack/readStackTemplate.js";

/** A fake ingest function over an object of `lines` lines, reading `perCall` lines per invocation. */
function fakeIngest(lines: number, perCall: number, inputs: unknown[]) {
  return async (input: unknown): Promise<IngestResult> => {
    inputs.push(input);
    let from = 1;
    try {
      from = checkpointsOfEvent(input)[0]?.line ?? 1;
    } catch (error) {
      // Not an input the function takes: read from the start (the test's own event).
      if (!(error instanceof UnknownIngestInputError)) throw error;
    }
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

/** The template's ingest state machine, with its DefinitionString's text passed through `edit`. */
function editedIngest(template: CfnTemplate, edit: (text: string) => string): IngestPlan {
  const edited = structuredClone(template);
  let changed = false;
  for (const resource of Object.values(edited.Resources)) {
    if (resource.Type !== "AWS::StepFunctions::StateMachine" || resource.Properties === undefined) continue;
    const join = (resource.Properties.DefinitionString as { "Fn::Join": [string, unknown[]] })["Fn::Join"];
    join[1] = join[1].map((piece) => {
      if (typeof piece !== "string") return piece;
      const after = edit(piece);
      changed ||= after !== piece;
      return after;
    });
  }
  assert.ok(changed, "the edit changes the template's definition");
  return readStackTemplate(edited).ingest;
}

let template: CfnTemplate;
let ingest: IngestPlan;
/** What runIngestWorkflow and IngestTrigger take of the template. */
const workflow = () => ({ stateMachine: ingest.stateMachine, functionId: ingest.function.logicalId });

before(async () => {
  template = await loadStackTemplate();
  ingest = readStackTemplate(template).ingest;
});

describe("runIngestWorkflow", () => {
  it("runs the template's definition: invokes with the event, then with each result's pending until none is left", async () => {
    const inputs: unknown[] = [];
    const event = { source: "aws.s3" };
    const result = await runIngestWorkflow(event, {
      ...workflow(),
      invoke: fakeIngest(25, 10, inputs),
      region: "us-east-1",
    });
    assert.deepEqual(result, { linesRead: 25, sent: 25, rejected: 0, failed: 0, invocations: 3 });
    assert.deepEqual(inputs[0], event);
    assert.deepEqual(
      inputs.slice(1).map((input) => (input as { pending: IngestCheckpoint[] }).pending.map((c) => c.line)),
      [[11], [21]],
    );
  });

  it("follows the template: with the Choice's branch edited to end, one invocation reads 10 of 25 lines", async () => {
    const inputs: unknown[] = [];
    const edited = editedIngest(template, (text) =>
      text.replace('"IsPresent":true,"Next":"IngestFrom"', '"IsPresent":true,"Next":"Done"'),
    );

    const result = await runIngestWorkflow(
      { source: "aws.s3" },
      {
        stateMachine: edited.stateMachine,
        functionId: edited.function.logicalId,
        invoke: fakeIngest(25, 10, inputs),
        region: "us-east-1",
      },
    );

    assert.deepEqual(result, { linesRead: 10, sent: 10, rejected: 0, failed: 0, invocations: 1 });
  });

  it("refuses a definition the interpreter cannot run, naming the state machine", async () => {
    const jsonata = editedIngest(template, (text) =>
      text.replace('"TimeoutSeconds":43200', '"TimeoutSeconds":43200,"QueryLanguage":"JSONata"'),
    );
    await assert.rejects(
      runIngestWorkflow(
        {},
        {
          stateMachine: jsonata.stateMachine,
          functionId: jsonata.function.logicalId,
          invoke: fakeIngest(1, 1, []),
          region: "us-east-1",
        },
      ),
      (error: unknown) =>
        error instanceof StackTemplateError &&
        error.message.includes(ingest.stateMachine.logicalId) &&
        /JSONata/.test(error.message),
    );
  });

  it("refuses a definition that is not valid ASL (a Choice to a state that does not exist)", async () => {
    const invalid = editedIngest(template, (text) => text.replace('"Default":"Done"', '"Default":"Nowhere"'));
    await assert.rejects(
      runIngestWorkflow(
        {},
        {
          stateMachine: invalid.stateMachine,
          functionId: invalid.function.logicalId,
          invoke: fakeIngest(1, 1, []),
          region: "us-east-1",
        },
      ),
      (error: unknown) => error instanceof StackTemplateError && /not valid ASL/.test(error.message),
    );
  });

  it("fails with the function's own error when an invocation throws", async () => {
    const failure = new Error("the work queue is gone");
    failure.name = "QueueDoesNotExist";
    const invoke = async (): Promise<IngestResult> => {
      throw failure;
    };
    await assert.rejects(runIngestWorkflow({}, { ...workflow(), invoke, region: "us-east-1" }), failure);
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
      runIngestWorkflow({}, { ...workflow(), invoke, region: "us-east-1", maxStalledInvocations: 3 }),
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
      runIngestWorkflow({}, { ...workflow(), invoke, region: "us-east-1", signal: abort.signal }),
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
      ...workflow(),
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
      ...workflow(),
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
      ...workflow(),
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
