import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { systemClock } from "../../../core/common/Clock.js";
import type { EndpointInvocation } from "../../../core/endpoint/index.js";
import type { Outcome, ShadowRecordInput } from "../../../core/outcomes/index.js";
import {
  type DecisionEndpoint,
  type EndpointCallOptions,
  type OutcomeSink,
  ShadowAbandonedError,
  ShadowRunner,
  shadowOf,
} from "../../../core/pipeline/index.js";
import { PolicySet, parsePolicy } from "../../../core/policy/index.js";
import { DecideTelemetry } from "../../../functions/decide/DecideTelemetry.js";
import { decideBatch } from "../../../functions/decide/decideBatch.js";
import { confidentAnswer, MemoryEndpoint } from "../../core/pipeline/memoryPorts.js";
import { policyText } from "../../core/policy/fabricate.js";
import { captureStdout } from "../support/captureStdout.js";
import { sqsRecord } from "../support/sqsEvent.js";

const SENT_AT = Date.parse("2026-12-03T10:00:00.000Z");
/** The fake clock's time: every outcome is built 1,234 ms after the records were sent. */
const NOW = SENT_AT + 1234;

/** An endpoint that is never called: unreadable bodies are rejected without a model call. */
const unusedEndpoint: DecisionEndpoint = {
  endpointName: "decisions",
  invoke: async () => assert.fail("no item here reaches the endpoint"),
};

/** Records every outcome, except for the ids in `standing`, whose outcome stood already. */
function sink(standing: ReadonlySet<string>): OutcomeSink & { written: Outcome[] } {
  const written: Outcome[] = [];
  return {
    written,
    record: async (outcome) => {
      if (standing.has(outcome.id)) return { recorded: false, existing: outcome };
      written.push(outcome);
      return { recorded: true, outcome };
    },
  };
}

function recordSentAt(body: string, messageId: string, sentAt: number) {
  const record = sqsRecord(body, 1, messageId);
  return { ...record, attributes: { ...record.attributes, SentTimestamp: String(sentAt) } };
}

describe("decideBatch", () => {
  it("times each outcome it writes from its message's SentTimestamp (SendToOutcome, with its lane), and no duplicate", async () => {
    const outcomes = sink(new Set(["m-standing"]));
    const metrics = new Metrics({ namespace: "DecisionsTest", serviceName: "decide" });
    const telemetry = new DecideTelemetry(new Logger({ logLevel: "SILENT" }), metrics, "interactive");
    const records = [
      recordSentAt("not json", "m-written", SENT_AT),
      recordSentAt("not json either", "m-standing", SENT_AT - 5000),
    ];

    const { result, lines } = await captureStdout(() =>
      decideBatch(
        records,
        { getRemainingTimeInMillis: () => 60_000 },
        {
          endpoint: unusedEndpoint,
          outcomes,
          telemetry,
          policies: new PolicySet([]),
          settings: { deadlineMarginMs: 1000, maxConcurrentGroups: 1 },
          clock: { now: () => NOW, sleep: systemClock.sleep },
        },
      ),
    );

    assert.deepEqual(result.batchItemFailures, []);
    assert.deepEqual(
      outcomes.written.map((outcome) => [outcome.id, outcome.status]),
      [["m-written", "rejected"]],
    );
    const timed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((emf) => "SendToOutcome" in emf);
    assert.deepEqual(
      timed.map((emf) => [emf.SendToOutcome, emf.lane]),
      [[1234, "interactive"]],
    );
  });
});

/** A candidate endpoint that never answers, ignores its abort signal, and notes each call's signal. */
class StoppedCandidate implements DecisionEndpoint {
  readonly endpointName = "candidate";
  readonly signals: AbortSignal[] = [];
  settled = 0;
  invoke(_body: string, options: EndpointCallOptions): Promise<EndpointInvocation> {
    if (options.signal !== undefined) this.signals.push(options.signal);
    return new Promise<EndpointInvocation>(() => {}).finally(() => {
      this.settled += 1;
    });
  }
}

describe("decideBatch with a shadow candidate", () => {
  const shadowed = parsePolicy(policyText("shadow:\n  candidate: cand-1\n  rate: 1\n"), "test-policy.yaml");

  function records(count: number) {
    return Array.from({ length: count }, (_, i) =>
      sqsRecord(JSON.stringify({ id: `T-${i}`, policy: "test-policy", state: { n: i } }), 1, `m-${i}`),
    );
  }

  it("returns without waiting for a candidate that never answers: its calls are abandoned and recorded as such", async () => {
    const candidate = new StoppedCandidate();
    const shadowRecords: ShadowRecordInput[] = [];
    // The candidate's own budget is far longer than the live work: only the grace can end the wait.
    const runner = new ShadowRunner({
      records: { put: async (input) => shadowRecords.push(input) },
      candidate,
      budgetMs: 600_000,
    });
    const outcomes = sink(new Set());
    const batch = records(3);
    assert.equal(
      batch.every((record) => shadowOf({ rate: 1 }, "test-policy", JSON.parse(record.body).id)),
      true,
    );

    const result = await decideBatch(
      batch,
      { getRemainingTimeInMillis: () => 900_000 },
      {
        endpoint: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.9)),
        outcomes,
        telemetry: new DecideTelemetry(
          new Logger({ logLevel: "SILENT" }),
          new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
          "interactive",
        ),
        policies: new PolicySet([shadowed]),
        settings: { deadlineMarginMs: 1000, maxConcurrentGroups: 4 },
        shadow: runner,
      },
    );

    assert.deepEqual(result.batchItemFailures, []);
    assert.equal(outcomes.written.length, 3, "every live outcome is written");
    assert.equal(candidate.signals.length, 2, "the candidate was asked (two calls in flight at most)");
    assert.equal(candidate.settled, 0, "the candidate's calls are still pending when the batch returns");
    assert.ok(
      candidate.signals.every((signal) => signal.reason instanceof ShadowAbandonedError),
      "each call out was abandoned when the grace passed, not timed out by the candidate's budget",
    );
    assert.equal(runner.pending, 0);
    assert.deepEqual(
      shadowRecords.map((record) => [record.id, record.failure instanceof ShadowAbandonedError]).sort(),
      [
        ["T-0", true],
        ["T-1", true],
        ["T-2", true],
      ],
      "each sampled item's record says its candidate was abandoned",
    );
  });

  it("keeps the shadow records of a candidate that answers", async () => {
    const shadowRecords: ShadowRecordInput[] = [];
    const runner = new ShadowRunner({
      records: { put: async (input) => shadowRecords.push(input) },
      candidate: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.3)),
    });
    await decideBatch(
      records(3),
      { getRemainingTimeInMillis: () => 900_000 },
      {
        endpoint: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.9)),
        outcomes: sink(new Set()),
        telemetry: new DecideTelemetry(
          new Logger({ logLevel: "SILENT" }),
          new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
          "interactive",
        ),
        policies: new PolicySet([shadowed]),
        settings: { deadlineMarginMs: 1000, maxConcurrentGroups: 4 },
        shadow: runner,
      },
    );
    assert.deepEqual(
      shadowRecords.map((record) => [record.id, record.failure, record.result?.status]).sort(),
      [
        ["T-0", undefined, "fallback"],
        ["T-1", undefined, "fallback"],
        ["T-2", undefined, "fallback"],
      ],
    );
  });
});
