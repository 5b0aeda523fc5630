import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { systemClock } from "../../../core/common/Clock.js";
import type { Outcome } from "../../../core/outcomes/index.js";
import type { DecisionEndpoint, OutcomeSink } from "../../../core/pipeline/index.js";
import { PolicySet } from "../../../core/policy/index.js";
import { DecideTelemetry } from "../../../functions/decide/DecideTelemetry.js";
import { decideBatch } from "../../../functions/decide/decideBatch.js";
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
