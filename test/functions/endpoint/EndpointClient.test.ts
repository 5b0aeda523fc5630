import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type InvokeEndpointCommand,
  ModelError,
  type SageMakerRuntimeClient,
} from "@aws-sdk/client-sagemaker-runtime";
import { EndpointClient } from "../../../functions/endpoint/EndpointClient.js";
import { PermanentEndpointError, TransientEndpointError } from "../../../functions/endpoint/errors.js";
import { Deadline } from "../../../functions/shared/Deadline.js";
import { RetriesExhaustedError } from "../../../functions/shared/errors.js";
import { RetryPolicy } from "../../../functions/shared/RetryPolicy.js";
import { FakeClock } from "../../support/FakeClock.js";

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
});
