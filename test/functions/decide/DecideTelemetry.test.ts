import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { RetriesExhaustedError } from "../../../core/common/errors.js";
import { EndpointConfigurationError } from "../../../core/endpoint/errors.js";
import { CandidateTimeoutError } from "../../../core/pipeline/index.js";
import { DecideTelemetry } from "../../../functions/decide/DecideTelemetry.js";

/** Runs `action` with stdout (EMF metrics) and stderr (warn and error logs) captured, as JSON lines. */
async function captured(action: () => void): Promise<{ stdout: unknown[]; stderr: unknown[] }> {
  const lines = { stdout: [] as unknown[], stderr: [] as unknown[] };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  for (const stream of ["stdout", "stderr"] as const) {
    process[stream].write = ((chunk: string | Uint8Array) => {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines[stream].push(JSON.parse(line));
      return true;
    }) as typeof process.stdout.write;
  }
  try {
    action();
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
  return lines;
}

function telemetry() {
  const metrics = new Metrics({ namespace: "DecisionsTest", serviceName: "decide" });
  return {
    metrics,
    telemetry: new DecideTelemetry(new Logger({ serviceName: "decide", logLevel: "WARN" }), metrics),
  };
}

describe("DecideTelemetry.recordFailed", () => {
  it("logs a configuration error at error level with the message id, item, endpoint and what to fix, and counts it", async () => {
    const { metrics, telemetry: target } = telemetry();
    const error = new EndpointConfigurationError({
      endpointName: "decisions-typo",
      errorName: "ValidationError",
      httpStatus: 400,
      serviceMessage: "Endpoint decisions-typo of account 000000000000 not found.",
    });

    const { stdout, stderr } = await captured(() => {
      target.recordFailed("m-1", error, { policy: "ticket-routing", id: "T-1" });
      metrics.publishStoredMetrics();
    });

    assert.equal(stderr.length, 1);
    const log = stderr[0] as Record<string, unknown>;
    assert.equal(log.level, "ERROR");
    assert.match(
      String(log.message),
      /configuration error: the endpoint "decisions-typo" .*To fix: check that ENDPOINT_NAME/,
    );
    assert.deepEqual(
      [log.messageId, log.policy, log.itemId, log.part, log.resource, log.error],
      ["m-1", "ticket-routing", "T-1", "endpoint", "decisions-typo", "EndpointConfigurationError"],
    );
    assert.match(String(log.reason), /not found/);
    assert.match(String(log.fix), /sagemaker:InvokeEndpoint/);
    const emf = stdout[0] as Record<string, unknown>;
    assert.equal(emf.ConfigurationErrors, 1);
    assert.equal(emf.FailedRecords, 1);
  });

  it("logs any other failure at warn level with the message id and item, without counting a configuration error", async () => {
    const { metrics, telemetry: target } = telemetry();

    const { stdout, stderr } = await captured(() => {
      target.recordFailed("m-2", new RetriesExhaustedError(6, "attempts"), { policy: "p", id: "T-2" });
      metrics.publishStoredMetrics();
    });

    const log = stderr[0] as Record<string, unknown>;
    assert.equal(log.level, "WARN");
    assert.deepEqual([log.messageId, log.itemId, log.error], ["m-2", "T-2", "RetriesExhaustedError"]);
    const emf = stdout[0] as Record<string, unknown>;
    assert.equal(emf.FailedRecords, 1);
    assert.equal(emf.ConfigurationErrors, undefined);
  });
});

describe("DecideTelemetry.sendToOutcome", () => {
  it("emits SendToOutcome in milliseconds with the function's lane as a dimension beside the service", async () => {
    const metrics = new Metrics({ namespace: "DecisionsTest", serviceName: "decide" });
    const target = new DecideTelemetry(
      new Logger({ serviceName: "decide", logLevel: "WARN" }),
      metrics,
      "bulk",
    );

    const { stdout } = await captured(() => target.sendToOutcome(1234));

    assert.equal(stdout.length, 1);
    const emf = stdout[0] as {
      SendToOutcome: number;
      lane: string;
      service: string;
      _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: unknown[] }> };
    };
    assert.deepEqual([emf.SendToOutcome, emf.lane, emf.service], [1234, "bulk", "decide"]);
    const [directive] = emf._aws.CloudWatchMetrics;
    assert.equal(directive?.Namespace, "DecisionsTest");
    assert.deepEqual(directive?.Dimensions, [["service", "lane"]]);
    assert.deepEqual(directive?.Metrics, [{ Name: "SendToOutcome", Unit: "Milliseconds" }]);
  });

  it("names the interactive lane by default, and counts a send stamped after the outcome (clocks apart) as 0", async () => {
    const metrics = new Metrics({ namespace: "DecisionsTest", serviceName: "decide" });
    const target = new DecideTelemetry(new Logger({ serviceName: "decide", logLevel: "WARN" }), metrics);

    const { stdout } = await captured(() => target.sendToOutcome(-40));

    const emf = stdout[0] as { SendToOutcome: number; lane: string };
    assert.deepEqual([emf.SendToOutcome, emf.lane], [0, "interactive"]);
  });
});

/** The EMF documents of `stdout` merged per metric name: value, unit, dimensions. */
function shadowValues(
  stdout: unknown[],
): Record<string, { value: number; unit: string; dimensions: string[][]; policy: string }> {
  const values: Record<string, { value: number; unit: string; dimensions: string[][]; policy: string }> = {};
  for (const document of stdout as Array<Record<string, unknown>>) {
    const directive = (
      document._aws as {
        CloudWatchMetrics: Array<{ Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }>;
      }
    ).CloudWatchMetrics[0];
    for (const metric of directive?.Metrics ?? [])
      values[metric.Name] = {
        value: document[metric.Name] as number,
        unit: metric.Unit,
        dimensions: directive?.Dimensions ?? [],
        policy: document.policy as string,
      };
  }
  return values;
}

describe("DecideTelemetry's shadow metrics", () => {
  it("emits a record with a result: ShadowRecords 1, no failure, its agreement in percent and its status change, per policy", async () => {
    const { metrics, telemetry: target } = telemetry();

    const { stdout } = await captured(() =>
      target.shadowRecorded("ticket-routing", "T-1", "cand-1", undefined, {
        questions: 4,
        agreed: 3,
        statusChanged: true,
      }),
    );

    const values = shadowValues(stdout);
    assert.deepEqual(
      Object.fromEntries(Object.entries(values).map(([name, { value, unit }]) => [name, [value, unit]])),
      {
        ShadowRecords: [1, "Count"],
        ShadowFailures: [0, "Count"],
        ShadowTimeouts: [0, "Count"],
        ShadowAgreement: [75, "Percent"],
        ShadowStatusChanges: [1, "Count"],
      },
    );
    for (const { dimensions, policy } of Object.values(values)) {
      assert.deepEqual(dimensions, [["service", "policy"]]);
      assert.equal(policy, "ticket-routing");
    }
    assert.equal(metrics.hasStoredMetrics(), false, "nothing left for the batch's flush");
  });

  it("emits a failure as ShadowFailures 1, a timeout as ShadowTimeouts 1 too, neither with an agreement", async () => {
    const { telemetry: target } = telemetry();

    const failed = shadowValues(
      (await captured(() => target.shadowRecorded("p", "T-2", "cand-1", new Error("503"), undefined))).stdout,
    );
    const timedOut = shadowValues(
      (
        await captured(() =>
          target.shadowRecorded("p", "T-3", "cand-1", new CandidateTimeoutError("cand-1", 5000), undefined),
        )
      ).stdout,
    );

    assert.deepEqual(
      [failed.ShadowRecords?.value, failed.ShadowFailures?.value, failed.ShadowTimeouts?.value],
      [1, 1, 0],
    );
    assert.deepEqual(
      [timedOut.ShadowRecords?.value, timedOut.ShadowFailures?.value, timedOut.ShadowTimeouts?.value],
      [1, 1, 1],
    );
    for (const values of [failed, timedOut]) {
      assert.equal(values.ShadowAgreement, undefined);
      assert.equal(values.ShadowStatusChanges, undefined);
    }
  });

  it("leaves out the agreement when no question was compared, counts candidate calls and records not written per policy", async () => {
    const { telemetry: target } = telemetry();

    const { stdout } = await captured(() => {
      target.shadowRecorded("p", "T-4", "cand-1", undefined, {
        questions: 0,
        agreed: 0,
        statusChanged: false,
      });
      target.candidateCalled("p", "cand-1");
      target.shadowNotWritten("p", "T-5", "cand-1", new Error("table refused the write"));
    });

    const values = shadowValues(stdout);
    assert.equal(values.ShadowAgreement, undefined);
    assert.equal(values.ShadowStatusChanges?.value, 0);
    assert.deepEqual([values.ShadowCalls?.value, values.ShadowCalls?.policy], [1, "p"]);
    assert.deepEqual(
      [values.ShadowRecordsNotWritten?.value, values.ShadowRecordsNotWritten?.policy],
      [1, "p"],
    );
  });
});
