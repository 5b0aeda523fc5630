import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type InvokeEndpointCommand,
  ModelError,
  type SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import { Deadline } from "../../../core/common/Deadline.js";
import { DeadlineExceededError, RetriesExhaustedError } from "../../../core/common/errors.js";
import { RetryBudget } from "../../../core/common/RetryBudget.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { EndpointClient } from "../../../core/endpoint/EndpointClient.js";
import {
  EndpointBusyError,
  PermanentEndpointError,
  TransientEndpointError,
} from "../../../core/endpoint/errors.js";
import { AdaptiveConcurrencyLimiter } from "../../../core/flow/AdaptiveConcurrencyLimiter.js";
import { CallLatencyEstimate } from "../../../core/flow/CallLatencyEstimate.js";
import { FakeClock } from "../../support/FakeClock.js";
import { ManualClock } from "../../support/ManualClock.js";

/** Moves a manual clock on until `promise` settles (at most `limitMs` of its time). */
async function runOn<T>(clock: ManualClock, promise: Promise<T>, limitMs = 120_000): Promise<T> {
  let settled = false;
  const done = promise.finally(() => {
    settled = true;
  });
  for (let waited = 0; !settled && waited < limitMs; waited += 50) await clock.advance(50);
  return done;
}

type Reply = { status: number } | { body: string };

/** A SageMaker runtime client double answering from a script of replies, recording what it was sent. */
function scriptedClient(replies: Reply[]) {
  const sent: InvokeEndpointCommand[] = [];
  const client = {
    send: async (command: InvokeEndpointCommand) => {
      sent.push(command);
      const reply = replies.shift() ?? { status: 503 };
      if ("status" in reply) {
        throw new ModelError({
          message: "Received error from primary",
          $metadata: { httpStatusCode: 424 },
          OriginalStatusCode: reply.status,
          OriginalMessage: "{}",
        });
      }
      return { Body: new TextEncoder().encode(reply.body), $metadata: { requestId: `req-${sent.length}` } };
    },
  };
  return { client: client as unknown as SageMakerRuntimeClient, sent };
}

function endpointOn(client: SageMakerRuntimeClient, maxAttempts = 6) {
  return new EndpointClient({
    client,
    endpointName: "decisions",
    retry: new RetryPolicy({ maxAttempts, random: () => 0.5 }),
  });
}

describe("EndpointClient", () => {
  it("sends the body as JSON to the endpoint and returns the text with the request id", async () => {
    const clock = new FakeClock();
    const { client, sent } = scriptedClient([{ body: '{"answers":{}}' }]);

    const result = await endpointOn(client).invoke('{"state": {"2024": 1}}', {
      deadline: new Deadline(clock.now() + 10_000, clock),
    });

    assert.equal(result.body, '{"answers":{}}');
    assert.equal(result.requestId, "req-1");
    assert.equal(result.attempts, 1);
    const input = sent[0]?.input;
    assert.equal(input?.EndpointName, "decisions");
    assert.equal(input?.ContentType, "application/json");
    assert.equal(new TextDecoder().decode(input?.Body as Uint8Array), '{"state": {"2024": 1}}');
    assert.equal(input?.CustomAttributes, undefined);
  });

  it("names its inference component on every attempt, and none when it has none", async () => {
    const clock = new FakeClock();
    const { client, sent } = scriptedClient([{ status: 503 }, { body: "{}" }, { body: "{}" }]);
    const component = new EndpointClient({
      client,
      endpointName: "decisions",
      inferenceComponentName: "decisions-52ab4287-bulk",
      retry: new RetryPolicy({ maxAttempts: 3, random: () => 0 }),
    });
    const deadline = new Deadline(clock.now() + 10_000, clock);

    await component.invoke("{}", { deadline });
    await endpointOn(client).invoke("{}", { deadline });

    assert.deepEqual(
      sent.map((command) => command.input.InferenceComponentName),
      ["decisions-52ab4287-bulk", "decisions-52ab4287-bulk", undefined],
    );
    assert.equal("InferenceComponentName" in (sent[2]?.input ?? {}), false);
  });

  it("names its lane in CustomAttributes on every attempt", async () => {
    const clock = new FakeClock();
    const { client, sent } = scriptedClient([{ status: 503 }, { body: "{}" }]);
    const endpoint = new EndpointClient({
      client,
      endpointName: "decisions",
      retry: new RetryPolicy({ maxAttempts: 3, random: () => 0 }),
      customAttributes: "lane=bulk",
    });

    await endpoint.invoke("{}", { deadline: new Deadline(clock.now() + 10_000, clock) });

    assert.deepEqual(
      sent.map((command) => command.input.CustomAttributes),
      ["lane=bulk", "lane=bulk"],
    );
  });

  it("retries the model's 503 and 504 and answers from the third attempt", async () => {
    const clock = new FakeClock();
    const { client, sent } = scriptedClient([{ status: 503 }, { status: 504 }, { body: "{}" }]);
    const retries: number[] = [];

    const result = await endpointOn(client).invoke("{}", {
      deadline: new Deadline(clock.now() + 10_000, clock),
      onRetry: (event) => retries.push(event.attempt),
    });

    assert.equal(result.attempts, 3);
    assert.equal(result.requestId, "req-3");
    assert.equal(sent.length, 3);
    assert.deepEqual(retries, [1, 2]);
    assert.deepEqual(clock.sleeps, [50, 100]);
  });

  it("does not retry the model's 400", async () => {
    const clock = new FakeClock();
    const { client, sent } = scriptedClient([{ status: 400 }, { body: "{}" }]);

    const error = await endpointOn(client)
      .invoke("{}", { deadline: new Deadline(clock.now() + 10_000, clock) })
      .catch((e: unknown) => e);

    assert.ok(error instanceof PermanentEndpointError);
    assert.equal(error.failure.originalStatusCode, 400);
    assert.equal(sent.length, 1);
  });

  it("gives up on an endpoint that always answers 503, with the last failure kept", async () => {
    const clock = new FakeClock();
    const { client, sent } = scriptedClient([]);

    const error = await endpointOn(client, 4)
      .invoke("{}", { deadline: new Deadline(clock.now() + 60_000, clock) })
      .catch((e: unknown) => e);

    assert.ok(error instanceof RetriesExhaustedError);
    assert.ok(error.cause instanceof TransientEndpointError);
    assert.equal(sent.length, 4);
  });

  it("reports each attempt to the limiter: a 503 halves the limit, a success raises it", async () => {
    const clock = new ManualClock();
    const { client } = scriptedClient([{ status: 503 }, { body: "{}" }]);
    const limiter = new AdaptiveConcurrencyLimiter({ maxLimit: 4, initialLimit: 4, pauseMs: 10, clock });
    const endpoint = new EndpointClient({
      client,
      endpointName: "decisions",
      retry: new RetryPolicy({ random: () => 0.5 }),
      limiter,
    });

    const result = await runOn(
      clock,
      endpoint.invoke("{}", { deadline: new Deadline(clock.now() + 10_000, clock) }),
    );

    assert.equal(result.attempts, 2);
    assert.equal(limiter.stats().decreases, 1);
    assert.equal(limiter.limit(), 2.5, "halved to 2, then +1/2 for the success");
    assert.equal(limiter.stats().inFlight, 0);
  });

  it("leaves the limit alone on a failure that is not about capacity (the model's 500)", async () => {
    const clock = new ManualClock();
    const { client } = scriptedClient([{ status: 500 }, { body: "{}" }]);
    const limiter = new AdaptiveConcurrencyLimiter({ maxLimit: 4, initialLimit: 2, clock });
    const endpoint = new EndpointClient({
      client,
      endpointName: "decisions",
      retry: new RetryPolicy(),
      limiter,
    });

    await runOn(clock, endpoint.invoke("{}", { deadline: new Deadline(clock.now() + 10_000, clock) }));

    assert.equal(limiter.stats().decreases, 0);
  });

  it("makes no call when no permit comes before the deadline, and says it is busy", async () => {
    const clock = new ManualClock();
    const { client, sent } = scriptedClient([{ body: "{}" }]);
    const limiter = new AdaptiveConcurrencyLimiter({ maxLimit: 1, clock });
    const held = await limiter.acquire(new Deadline(clock.now() + 60_000, clock));
    const endpoint = new EndpointClient({
      client,
      endpointName: "decisions",
      retry: new RetryPolicy(),
      limiter,
    });

    const error = await runOn(
      clock,
      endpoint.invoke("{}", { deadline: new Deadline(clock.now() + 1_000, clock) }).catch((e: unknown) => e),
    );

    assert.ok(error instanceof RetriesExhaustedError);
    assert.ok(error.cause instanceof EndpointBusyError);
    assert.equal(sent.length, 0);
    held?.release("ok");
  });

  it("stops retrying an endpoint that always answers 503 once the instance's retry budget is spent", async () => {
    const clock = new FakeClock();
    const { client, sent } = scriptedClient([]);
    const budget = new RetryBudget({ capacity: 10, retryCost: 5 });
    const endpoint = new EndpointClient({
      client,
      endpointName: "decisions",
      retry: new RetryPolicy({ maxAttempts: 6, random: () => 0, budget }),
    });

    const error = await endpoint
      .invoke("{}", { deadline: new Deadline(clock.now() + 60_000, clock) })
      .catch((e: unknown) => e);

    assert.ok(error instanceof RetriesExhaustedError);
    assert.equal(error.reason, "budget");
    assert.equal(sent.length, 3, "the first call and two budgeted retries, not six calls");
  });

  it("calls a call aborted by the deadline busy, and counts it as an overload", async () => {
    const clock = new FakeClock();
    const limiter = new AdaptiveConcurrencyLimiter({ maxLimit: 4, clock });
    const client = {
      send: async () => {
        clock.advance(2_000);
        throw Object.assign(new Error("This operation was aborted"), { name: "AbortError" });
      },
    } as unknown as SageMakerRuntimeClient;
    const endpoint = new EndpointClient({
      client,
      endpointName: "decisions",
      retry: new RetryPolicy(),
      limiter,
    });

    const error = await endpoint
      .invoke("{}", { deadline: new Deadline(clock.now() + 1_000, clock) })
      .catch((e: unknown) => e);

    assert.ok(error instanceof RetriesExhaustedError);
    assert.ok(error.cause instanceof EndpointBusyError);
    assert.equal(error.cause.reason, "deadline");
    assert.equal(limiter.stats().decreases, 1);
  });
});

describe("EndpointClient with a latency estimate", () => {
  /** A client whose every answer takes `ms` of the manual clock. */
  function slowClient(clock: ManualClock, ms: number) {
    const sent: string[] = [];
    const client = {
      send: async (command: InvokeEndpointCommand) => {
        sent.push(new TextDecoder().decode(command.input.Body as Uint8Array));
        await clock.sleep(ms);
        return { Body: new TextEncoder().encode("{}"), $metadata: {} };
      },
    };
    return { client: client as unknown as SageMakerRuntimeClient, sent };
  }

  it("starts no call the deadline would abort while another is out, and starts a lone one anyway", async () => {
    const clock = new ManualClock();
    const { client, sent } = slowClient(clock, 4_000);
    const latency = new CallLatencyEstimate({ weight: 1, headroom: 1.5 });
    const endpoint = new EndpointClient({
      client,
      endpointName: "decisions",
      retry: new RetryPolicy({ random: () => 0.5 }),
      limiter: new AdaptiveConcurrencyLimiter({ maxLimit: 4, initialLimit: 4, clock }),
      latency,
    });
    const deadline = (ms: number) => new Deadline(clock.now() + ms, clock);

    await runOn(clock, endpoint.invoke("first", { deadline: deadline(60_000) }));
    assert.equal(latency.neededMs(), 6_000);

    // One call out; the next has 5 s left where a call needs 6 s: not started, busy.
    const out = endpoint.invoke("out", { deadline: deadline(60_000) });
    await clock.advance(0);
    await assert.rejects(
      runOn(clock, endpoint.invoke("late", { deadline: deadline(5_000) })),
      DeadlineExceededError,
    );
    await runOn(clock, out);
    assert.deepEqual(sent, ["first", "out"]);

    // Nothing out: the call starts though the estimate (6 s) exceeds the time left (5 s), and is served.
    const lone = await runOn(clock, endpoint.invoke("lone", { deadline: deadline(5_000) }));
    assert.equal(lone.attempts, 1);
    assert.deepEqual(sent, ["first", "out", "lone"]);
  });
});
