/**
 * The shadow step with in-memory ports: the live outcomes and their timings are the same whether
 * the candidate is fast, slow, failing, malformed or absent (or the shadow records cannot be
 * written), the live call returns while a slow candidate is still out, and a shadow record exists
 * for the sampled share of items only.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EndpointInvocation } from "../../../../core/endpoint/index.js";
import type { ShadowRecordInput } from "../../../../core/outcomes/index.js";
import {
  type DecideItemsResult,
  type DecisionEndpoint,
  decideItems,
  type EndpointCallOptions,
  type LiveAgreement,
  ShadowRunner,
  type ShadowRunnerOptions,
  type ShadowSink,
  shadowOf,
  type WorkItemInput,
} from "../../../../core/pipeline/index.js";
import { type Policy, PolicySet, parsePolicy } from "../../../../core/policy/index.js";
import { FakeClock } from "../../../support/FakeClock.js";
import { policyText } from "../../policy/fabricate.js";
import { confidentAnswer, MemoryEndpoint, MemorySink, RecordingTelemetry } from "../memoryPorts.js";

const RATE = 0.4;
const shadowed: Policy = parsePolicy(
  policyText(`shadow:
  candidate: cand-1
  rate: ${RATE}
`),
  "test-policy.yaml",
);

/** 30 items with states of their own and 3 sharing one (one group of 3). */
function inputs(): WorkItemInput[] {
  const items = [
    ...Array.from({ length: 30 }, (_, i) => ({ id: `T-${i}`, state: { n: i } })),
    ...["S-1", "S-2", "S-3"].map((id) => ({ id, state: { shared: true } })),
  ];
  return items.map(({ id, state }, i) => ({
    body: JSON.stringify({ id, policy: "test-policy", state }),
    origin: { kind: "sqs", messageId: `m-${i}`, receiveCount: 1, sentAt: 1_699_999_999_000 },
  }));
}

const sampledIds = inputs()
  .map((input) => (JSON.parse(input.body) as { id: string }).id)
  .filter((id) => shadowOf({ rate: RATE }, "test-policy", id) !== undefined)
  .sort();

class MemoryShadowSink implements ShadowSink {
  readonly records: ShadowRecordInput[] = [];
  failWith: Error | undefined;
  async put(input: ShadowRecordInput): Promise<unknown> {
    if (this.failWith !== undefined) throw this.failWith;
    this.records.push(input);
    return input;
  }
}

/** A candidate endpoint whose answers wait for {@link release}; it counts calls in flight. */
class HeldEndpoint implements DecisionEndpoint {
  readonly endpointName = "candidate-endpoint";
  calls = 0;
  inFlight = 0;
  maxInFlight = 0;
  readonly #held: (() => void)[] = [];
  constructor(readonly answer: () => string) {}
  async invoke(_body: string, _options: EndpointCallOptions): Promise<EndpointInvocation> {
    this.calls += 1;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise<void>((resolve) => this.#held.push(resolve));
    this.inFlight -= 1;
    return { body: this.answer(), requestId: "cand", attempts: 1, latencyMs: 7, totalMs: 7 };
  }
  /** Lets every call waiting now answer. */
  release(): void {
    for (const resolve of this.#held.splice(0)) resolve();
  }
}

/** An endpoint that never answers and ignores the abort signal. */
const silent: DecisionEndpoint = {
  endpointName: "silent",
  invoke: () => new Promise<EndpointInvocation>(() => {}),
};

interface Run {
  result: DecideItemsResult;
  outcomes: MemorySink;
  live: MemoryEndpoint;
  sink: MemoryShadowSink;
  runner: ShadowRunner | undefined;
  pendingAfterLive: number;
  telemetry: string[];
  /** The policies of the candidate calls told, in order. */
  calls: string[];
  /** Per shadow record written: how its result compared with the live outcome (none for a failure). */
  versusLive: Map<string, LiveAgreement | undefined>;
}

async function run(
  shadow: Partial<ShadowRunnerOptions> | undefined,
  prepare?: (sink: MemoryShadowSink) => void,
  policy: Policy = shadowed,
): Promise<Run> {
  const outcomes = new MemorySink();
  const clock = new FakeClock();
  // Each live call takes 5 ms of the live clock: the outcomes' times and timings differ by group.
  const live = new MemoryEndpoint(() => {
    clock.advance(5);
    return confidentAnswer(policy, 0.9);
  });
  const sink = new MemoryShadowSink();
  prepare?.(sink);
  const telemetry: string[] = [];
  const calls: string[] = [];
  const versusLive = new Map<string, LiveAgreement | undefined>();
  const runner =
    shadow === undefined
      ? undefined
      : new ShadowRunner({
          records: sink,
          telemetry: {
            candidateCalled: (p, c) => calls.push(`${p} ${c}`),
            shadowRecorded: (p, id, c, failure, compared) => {
              versusLive.set(id, compared);
              telemetry.push(`recorded ${p}/${id} ${c}${failure === undefined ? "" : " failure"}`);
            },
            shadowNotWritten: (p, id, c) => telemetry.push(`not written ${p}/${id} ${c}`),
          },
          ...shadow,
        });
  const result = await decideItems(
    inputs(),
    {
      endpoint: live,
      outcomes,
      telemetry: new RecordingTelemetry(),
      clock,
      ...(runner === undefined ? {} : { shadow: runner }),
    },
    {
      policies: new PolicySet([policy]),
      remainingMs: 60_000,
      deadlineMarginMs: 10_000,
      maxConcurrentGroups: 4,
    },
  );
  const pendingAfterLive = runner?.pending ?? 0;
  return { result, outcomes, live, sink, runner, pendingAfterLive, telemetry, calls, versusLive };
}

const liveOf = (r: Run) => ({
  results: r.result.results,
  outcomes: [...r.outcomes.outcomes.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
  bodies: [...r.live.bodies].sort(),
});

describe("the shadow step", () => {
  it("leaves the live outcomes, their timings and the live calls as they are without a candidate", async () => {
    const baseline = await run(undefined);
    assert.equal(baseline.outcomes.outcomes.size, 33);
    assert.ok(sampledIds.length > 5 && sampledIds.length < 28, `${sampledIds.length} sampled`);

    const cases: [string, () => Promise<Run>][] = [
      ["fast", () => run({ candidate: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.3)) })],
      [
        "failing",
        () =>
          run({
            candidate: new MemoryEndpoint(() => {
              throw Object.assign(new Error("503 from the candidate"), { name: "TransientEndpointError" });
            }),
          }),
      ],
      ["malformed", () => run({ candidate: new MemoryEndpoint(() => "not json") })],
      ["absent", () => run({})],
      ["timing out", () => run({ candidate: silent, budgetMs: 30 })],
      [
        "unwritable",
        () =>
          run({ candidate: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.3)) }, (sink) => {
            sink.failWith = new Error("table refused the write");
          }),
      ],
    ];
    for (const [name, start] of cases) {
      const shadowedRun = await start();
      await shadowedRun.runner?.drain();
      assert.deepEqual(liveOf(shadowedRun), liveOf(baseline), `candidate ${name}`);
      assert.equal(shadowedRun.runner?.pending, 0, `candidate ${name}: drained`);
    }
  });

  it("returns the live results while a slow candidate is still out, and records its answers once it gives them", async () => {
    const baseline = await run(undefined);
    const candidate = new HeldEndpoint(() => confidentAnswer(shadowed, 0.3));
    const slow = await run({ candidate, budgetMs: 60_000, maxConcurrent: 2 });

    assert.ok(slow.pendingAfterLive > 0, "the candidate steps outlive the live call");
    assert.deepEqual(liveOf(slow), liveOf(baseline));
    assert.equal(slow.sink.records.length, 0, "no record before the candidate answered");
    assert.equal(candidate.calls, 2, "two calls out, the rest waiting for a place");

    const drained = slow.runner?.drain();
    while (slow.runner !== undefined && slow.runner.pending > 0) {
      candidate.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await drained;
    assert.equal(candidate.maxInFlight, 2, "never more than maxConcurrent calls at once");
    assert.deepEqual(slow.sink.records.map((record) => record.id).sort(), sampledIds);
    for (const record of slow.sink.records) {
      assert.equal(record.result?.status, "fallback", record.id);
      assert.equal(record.timings?.endpoint_ms, 7);
      assert.equal(record.candidate.endpoint, "candidate-endpoint");
      assert.equal(record.candidate.name, "cand-1");
      const live = slow.outcomes.get("test-policy", record.id);
      assert.deepEqual(record.live, { updatedAt: live?.updated_at, status: "decided" });
      assert.equal(record.sample?.rate, RATE);
    }
  });

  it("writes a shadow record for the sampled items only: the candidate's result, or its failure", async () => {
    const fast = await run({ candidate: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.3)) });
    await fast.runner?.drain();
    assert.deepEqual(fast.sink.records.map((record) => record.id).sort(), sampledIds);
    assert.ok(
      fast.sink.records.every((record) => record.result !== undefined && record.failure === undefined),
    );

    const failures: [string, Partial<ShadowRunnerOptions>, string][] = [
      ["absent", {}, "CandidateEndpointAbsentError"],
      ["malformed", { candidate: new MemoryEndpoint(() => "not json") }, "InvalidEndpointResponseError"],
      ["timing out", { candidate: silent, budgetMs: 30 }, "CandidateTimeoutError"],
    ];
    for (const [name, options, error] of failures) {
      const failed = await run(options);
      await failed.runner?.drain();
      assert.deepEqual(
        failed.sink.records.map((record) => record.id).sort(),
        sampledIds,
        `candidate ${name}`,
      );
      for (const record of failed.sink.records) {
        assert.equal(record.result, undefined);
        assert.ok(
          record.failure instanceof Error && record.failure.name === error,
          `${name}: ${String(record.failure)}`,
        );
      }
    }
  });

  it("tells of each candidate call, one per group with sampled items, and how each result compares with the live outcome", async () => {
    // Live answers at 0.9 (billing, decided); the same answer agrees, 0.3 falls back to technical.
    const same = await run({ candidate: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.9)) });
    await same.runner?.drain();
    const sampledGroups = new Set(sampledIds.map((id) => (id.startsWith("S-") ? "S" : id))).size;
    assert.deepEqual(
      same.calls,
      Array.from({ length: sampledGroups }, () => "test-policy cand-1"),
    );
    assert.deepEqual([...same.versusLive.keys()].sort(), sampledIds);
    for (const [id, compared] of same.versusLive)
      assert.deepEqual(compared, { questions: 1, agreed: 1, statusChanged: false }, id);

    const unsure = await run({ candidate: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.3)) });
    await unsure.runner?.drain();
    for (const [id, compared] of unsure.versusLive)
      assert.deepEqual(compared, { questions: 1, agreed: 0, statusChanged: true }, id);

    const timingOut = await run({ candidate: silent, budgetMs: 30 });
    await timingOut.runner?.drain();
    assert.equal(timingOut.calls.length, sampledGroups, "a call that times out was made");
    assert.ok([...timingOut.versusLive.values()].every((compared) => compared === undefined));

    const absent = await run({});
    await absent.runner?.drain();
    assert.deepEqual(absent.calls, [], "no endpoint, no call");
  });

  it("logs a record it cannot write, and nothing else changes", async () => {
    const unwritable = await run(
      { candidate: new MemoryEndpoint(() => confidentAnswer(shadowed, 0.3)) },
      (sink) => {
        sink.failWith = new Error("table refused the write");
      },
    );
    await unwritable.runner?.drain();
    assert.deepEqual(
      unwritable.telemetry.sort(),
      sampledIds.map((id) => `not written test-policy/${id} cand-1`).sort(),
    );
  });

  it("takes the live answer for a policy-only candidate (endpoint: live): no second call, the candidate's thresholds", async () => {
    const policyOnly = parsePolicy(
      policyText(`shadow:
  candidate: strict
  rate: ${RATE}
  endpoint: live
  thresholds: { route: 0.95 }
`),
      "test-policy.yaml",
    );
    const baseline = await run(undefined, undefined, policyOnly);
    const candidate = new MemoryEndpoint(() => confidentAnswer(policyOnly, 0.3));
    const shadowedRun = await run({ candidate }, undefined, policyOnly);
    await shadowedRun.runner?.drain();
    assert.deepEqual(liveOf(shadowedRun), liveOf(baseline));
    assert.equal(candidate.bodies.length, 0);
    assert.deepEqual(shadowedRun.sink.records.map((record) => record.id).sort(), sampledIds);
    for (const record of shadowedRun.sink.records) {
      assert.equal(record.result?.status, "fallback");
      assert.equal(record.result?.answers?.route?.threshold, 0.95);
      assert.equal(record.candidate.endpoint, "memory");
      assert.equal(record.timings, undefined);
      assert.equal(shadowedRun.outcomes.get("test-policy", record.id)?.status, "decided");
    }
  });
});
