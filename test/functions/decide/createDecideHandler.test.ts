import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ModelError, type SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { Deadline } from "../../../core/common/Deadline.js";
import { createDecideDeps } from "../../../functions/decide/createDecideDeps.js";
import { createDecideHandler } from "../../../functions/decide/createDecideHandler.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import { LOCAL_CREDENTIALS } from "../../../local/index.js";
import { captureStdout } from "../support/captureStdout.js";
import { sqsEvent } from "../support/sqsEvent.js";

describe("createDecideHandler", () => {
  it("returns every record as a failure, without throwing, when the endpoint and the table are both down", async () => {
    let calls = 0;
    const sagemaker = {
      send: async () => {
        calls += 1;
        throw new ModelError({
          message: "busy",
          $metadata: { httpStatusCode: 424 },
          OriginalStatusCode: 503,
        });
      },
    } as unknown as SageMakerRuntimeClient;
    // Nothing listens on port 9: every write is refused (ECONNREFUSED, transient).
    const dynamodb = new DynamoDBClient({
      endpoint: "http://127.0.0.1:9",
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    const deps = await createDecideDeps(
      {
        outcomesTable: "outcomes",
        endpointName: "decisions",
        policyDir: "policies",
        deadlineMarginMs: 1000,
        maxConcurrentGroups: 2,
        maxAttempts: 2,
        retryBaseDelayMs: 1,
        retryMaxDelayMs: 2,
        unknownPolicyWaitSeconds: 0,
      },
      {
        sagemakerRuntime: sagemaker,
        dynamodb,
        logger: new Logger({ logLevel: "SILENT" }),
        metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
      },
    );
    const handler = createDecideHandler(deps);
    const event = sqsEvent([
      JSON.stringify({ id: "a", policy: "ticket-routing", state: "one" }),
      JSON.stringify({ id: "b", policy: "ticket-routing", state: "two" }),
      "not json",
    ]);

    try {
      const { result } = await captureStdout(() =>
        handler(
          event,
          createLambdaContext({ functionName: "decide", region: "us-east-1", timeoutMs: 30_000 }),
        ),
      );

      assert.deepEqual(
        result.batchItemFailures.map((failure) => failure.itemIdentifier),
        event.Records.map((record) => record.messageId),
      );
      assert.equal(calls, 4, "two groups, two attempts each");
    } finally {
      dynamodb.destroy();
    }
  });

  it("names its lane's inference component on every endpoint call when it is given one, and none otherwise", async () => {
    const sent: Array<Record<string, unknown>> = [];
    const sagemaker = {
      send: async (command: { input: Record<string, unknown> }) => {
        sent.push(command.input);
        return { Body: new TextEncoder().encode("{}"), $metadata: {} };
      },
    } as unknown as SageMakerRuntimeClient;
    const config = {
      outcomesTable: "outcomes",
      endpointName: "decisions",
      policyDir: "policies",
      deadlineMarginMs: 1000,
      maxConcurrentGroups: 2,
      maxAttempts: 1,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 2,
      unknownPolicyWaitSeconds: 0,
    };
    const parts = {
      sagemakerRuntime: sagemaker,
      logger: new Logger({ logLevel: "SILENT" }),
      metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
    };
    const bulk = await createDecideDeps(
      { ...config, lane: "bulk" as const, inferenceComponentName: "decisions-52ab4287-bulk" },
      parts,
    );
    const shared = await createDecideDeps(
      { ...config, lane: "bulk" as const, inferenceComponentName: "" },
      parts,
    );
    const deadline = new Deadline(Date.now() + 10_000);

    await bulk.endpoint.invoke("{}", { deadline });
    await shared.endpoint.invoke("{}", { deadline });

    assert.deepEqual(
      sent.map((input) => [input.InferenceComponentName, input.CustomAttributes]),
      [
        ["decisions-52ab4287-bulk", "lane=bulk"],
        [undefined, "lane=bulk"],
      ],
    );
  });

  it("re-queues the records the endpoint refused for capacity and gives back those that failed for real", async () => {
    const sagemaker = {
      send: async (command: { input: { Body: Uint8Array } }) => {
        const body = new TextDecoder().decode(command.input.Body);
        // The state "busy" meets a full endpoint; "broken" an endpoint that fails (500).
        throw new ModelError({
          message: "refused",
          $metadata: { httpStatusCode: 424 },
          OriginalStatusCode: body.includes('"busy"') ? 503 : 500,
          OriginalMessage: '{"error":"x","retryable":true}',
        });
      },
    } as unknown as SageMakerRuntimeClient;
    const copies: Record<string, unknown>[] = [];
    const sqs = {
      send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
        if (command.constructor.name === "GetQueueUrlCommand")
          return { QueueUrl: "http://127.0.0.1:9/000000000000/work" };
        copies.push(command.input);
        return { MessageId: `copy-${copies.length}` };
      },
    } as unknown as SQSClient;
    const dynamodb = new DynamoDBClient({
      endpoint: "http://127.0.0.1:9",
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    const deps = await createDecideDeps(
      {
        outcomesTable: "outcomes",
        endpointName: "decisions",
        policyDir: "policies",
        deadlineMarginMs: 1000,
        maxConcurrentGroups: 2,
        maxAttempts: 2,
        retryBaseDelayMs: 1,
        retryMaxDelayMs: 2,
        unknownPolicyWaitSeconds: 0,
      },
      {
        sagemakerRuntime: sagemaker,
        dynamodb,
        sqs,
        logger: new Logger({ logLevel: "SILENT" }),
        metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
      },
    );
    const event = sqsEvent([
      JSON.stringify({ id: "a", policy: "ticket-routing", state: "busy" }),
      JSON.stringify({ id: "b", policy: "ticket-routing", state: "broken" }),
    ]);

    try {
      const { result } = await captureStdout(() =>
        createDecideHandler(deps)(
          event,
          createLambdaContext({ functionName: "decide", region: "us-east-1", timeoutMs: 30_000 }),
        ),
      );

      assert.deepEqual(
        result.batchItemFailures.map((failure) => failure.itemIdentifier),
        [event.Records[1]?.messageId],
      );
      assert.equal(copies.length, 1);
      assert.equal(copies[0]?.MessageBody, event.Records[0]?.body);
      assert.ok(Number(copies[0]?.DelaySeconds) >= 1);
    } finally {
      dynamodb.destroy();
    }
  });
});
