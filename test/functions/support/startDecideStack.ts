/**
 * The decide function's real surroundings for integration tests, all on 127.0.0.1: Amazon
 * DynamoDB Local, the real adapter on tiny-qwen3 behind a fault-injecting proxy, the local SageMaker
 * gateway in front of that, and real SDK clients (retries off, as the function builds them).
 */
import { randomUUID } from "node:crypto";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { DynamoDBDocumentClient, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { isFailureRecordKey } from "../../../contract/index.js";
import type { Clock } from "../../../core/common/Clock.js";
import { type Outcome, outcomesTableDefinition } from "../../../core/outcomes/index.js";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";
import { createDecideDeps } from "../../../functions/decide/createDecideDeps.js";
import { createDecideHandler } from "../../../functions/decide/createDecideHandler.js";
import type { DecideConfig } from "../../../functions/decide/readDecideConfig.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import {
  type DynamoDbLocal,
  LOCAL_CREDENTIALS,
  type SageMakerGateway,
  startDynamoDbLocal,
  startSageMakerGateway,
} from "../../../local/index.js";
import { type FaultProxy, startFaultProxy } from "../../support/FaultProxy.js";
import { captureStdout } from "./captureStdout.js";
import { type RunningAdapter, startAdapter } from "./startAdapter.js";

export const ENDPOINT = "decisions";
const REGION = "us-east-1";

/** A handler over a fresh outcomes table, and ways to look at that table. */
export interface DecideUnderTest {
  table: string;
  /** The stdout lines (EMF metrics) of every invocation so far. */
  emitted: string[];
  invoke(event: SQSEvent, remainingMs?: number): Promise<SQSBatchResponse>;
  outcomes(): Promise<Outcome[]>;
  outcome(policy: string, id: string): Promise<Outcome | undefined>;
}

/** The running parts. */
export interface DecideStack {
  adapter: RunningAdapter;
  proxy: FaultProxy;
  gateway: SageMakerGateway;
  dynamo: DynamoDbLocal;
  sagemaker: SageMakerRuntimeClient;
  documents: DynamoDBDocumentClient;
  /** A decide handler on a new table, with these settings over the defaults. */
  handler(
    config?: Partial<DecideConfig>,
    options?: { clock?: Clock; policies?: PolicySet },
  ): Promise<DecideUnderTest>;
  stop(): Promise<void>;
}

/** Starts the stack; the caller must `stop()` it (in `after`). */
export async function startDecideStack(): Promise<DecideStack> {
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE ??= "on-demand";
  const started: { stop(): Promise<void> }[] = [];
  try {
    const [adapter, dynamo] = await Promise.all([startAdapter(), startDynamoDbLocal({ env: process.env })]);
    started.push(adapter, dynamo);
    const proxy = await startFaultProxy(adapter.url);
    started.push(proxy);
    const gateway = await startSageMakerGateway({ endpoints: { [ENDPOINT]: proxy.url } });
    started.push(gateway);
    const common = { region: REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 };
    const sagemaker = new SageMakerRuntimeClient({ ...common, endpoint: gateway.url });
    const dynamodb = new DynamoDBClient({ ...common, endpoint: dynamo.endpoint });
    const documents = DynamoDBDocumentClient.from(dynamodb, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const shipped = await loadPolicies("policies");
    return {
      adapter,
      proxy,
      gateway,
      dynamo,
      sagemaker,
      documents,
      async handler(config = {}, options = {}) {
        const table = `outcomes-${randomUUID().slice(0, 8)}`;
        await dynamodb.send(new CreateTableCommand(outcomesTableDefinition(table)));
        const deps = await createDecideDeps(
          {
            outcomesTable: table,
            endpointName: ENDPOINT,
            policyDir: "policies",
            deadlineMarginMs: 10_000,
            maxConcurrentGroups: 4,
            maxAttempts: 6,
            retryBaseDelayMs: 10,
            retryMaxDelayMs: 50,
            unknownPolicyWaitSeconds: 0,
            ...config,
          },
          {
            sagemakerRuntime: sagemaker,
            dynamodb,
            policies: options.policies ?? shipped,
            logger: new Logger({ serviceName: "decide", logLevel: "ERROR" }),
            metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
            ...(options.clock ? { clock: options.clock } : {}),
          },
        );
        const handler = createDecideHandler(deps);
        const emitted: string[] = [];
        return {
          table,
          emitted,
          invoke: async (event, remainingMs = 120_000) => {
            const context = createLambdaContext({
              functionName: "decide",
              region: REGION,
              timeoutMs: remainingMs,
            });
            const { result, lines } = await captureStdout(() => handler(event, context));
            emitted.push(...lines);
            return result;
          },
          outcomes: async () => {
            const output = await documents.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
            // The decide function's failure records share the table under their own keys: not outcomes.
            return (output.Items ?? []).filter((item) => !isFailureRecordKey(item.policy)) as Outcome[];
          },
          outcome: async (policy, id) => {
            const output = await documents.send(
              new QueryCommand({
                TableName: table,
                KeyConditionExpression: "policy = :p AND id = :i",
                ExpressionAttributeValues: { ":p": policy, ":i": id },
                ConsistentRead: true,
              }),
            );
            return output.Items?.[0] as Outcome | undefined;
          },
        };
      },
      async stop() {
        sagemaker.destroy();
        dynamodb.destroy();
        for (const part of started.reverse()) await part.stop();
      },
    };
  } catch (error) {
    for (const part of started.reverse()) await part.stop().catch(() => undefined);
    throw error;
  }
}
