/**
 * The decide function's shadow step on its real surroundings on 127.0.0.1: Amazon DynamoDB Local,
 * the SageMaker gateway with two endpoints — the live one on the real adapter (generated
 * tiny-qwen3), the candidate on the same adapter behind a fault-injecting proxy — and real SDK
 * clients. The candidate is asked in the bulk lane, once per group with a sampled item; shadow
 * records exist for the sampled items only; a failing or absent candidate leaves the live outcomes
 * as they are and becomes the records' failure.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { SQSEvent } from "aws-lambda";
import { type Outcome, outcomesTableDefinition, ShadowRecordStore } from "../../../core/outcomes/index.js";
import { shadowOf } from "../../../core/pipeline/index.js";
import { loadPolicies, PolicySet, parsePolicy } from "../../../core/policy/index.js";
import { createDecideDeps } from "../../../functions/decide/createDecideDeps.js";
import { createDecideHandler } from "../../../functions/decide/createDecideHandler.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import {
  type DynamoDbLocal,
  LOCAL_CREDENTIALS,
  type SageMakerGateway,
  startDynamoDbLocal,
  startSageMakerGateway,
} from "../../../local/index.js";
import { type FaultProxy, startFaultProxy } from "../../support/FaultProxy.js";
import { captureStdout } from "../support/captureStdout.js";
import { type RunningAdapter, startAdapter } from "../support/startAdapter.js";

const REGION = "us-east-1";
const RATE = 0.5;
const ticketBatch = JSON.parse(readFileSync("events/sqs/ticket-batch.json", "utf8")) as SQSEvent;
const ids = ticketBatch.Records.map((record) => (JSON.parse(record.body) as { id: string }).id);
const sampled = ids.filter((id) => shadowOf({ rate: RATE }, "ticket-routing", id) !== undefined).sort();

describe("the decide function's shadow step on the local stack (integration)", () => {
  let adapter: RunningAdapter;
  let dynamo: DynamoDbLocal;
  let proxy: FaultProxy;
  let gateway: SageMakerGateway;
  let sagemaker: SageMakerRuntimeClient;
  let dynamodb: DynamoDBClient;
  let documents: DynamoDBDocumentClient;
  let policies: PolicySet;
  const lanes: (string | undefined)[] = [];

  before(async () => {
    [adapter, dynamo] = await Promise.all([startAdapter(), startDynamoDbLocal({ env: process.env })]);
    proxy = await startFaultProxy(adapter.url);
    proxy.onRequest = (request) => {
      const header = request.headers["x-amzn-sagemaker-custom-attributes"];
      lanes.push(Array.isArray(header) ? header.join(",") : header);
    };
    gateway = await startSageMakerGateway({ endpoints: { decisions: adapter.url, candidate: proxy.url } });
    const common = { region: REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 };
    sagemaker = new SageMakerRuntimeClient({ ...common, endpoint: gateway.url });
    dynamodb = new DynamoDBClient({ ...common, endpoint: dynamo.endpoint });
    documents = DynamoDBDocumentClient.from(dynamodb, { marshallOptions: { removeUndefinedValues: true } });
    const shipped = await loadPolicies("policies");
    // The shipped policy with a candidate version: the same model's answers at stricter thresholds.
    const text = `${readFileSync("policies/ticket-routing.yaml", "utf8")}
shadow:
  candidate: strict
  rate: ${RATE}
  version: "3-strict"
  thresholds: { queue: 0.99, priority: 0.99, needs_human: 0.99 }
`;
    const shadowed = parsePolicy(text, "policies/ticket-routing.yaml");
    policies = new PolicySet([
      ...shipped
        .names()
        .flatMap((name) => (name === "ticket-routing" ? [] : [shipped.get(name) ?? []].flat())),
      shadowed,
    ]);
  });

  after(async () => {
    sagemaker?.destroy();
    dynamodb?.destroy();
    for (const part of [gateway, proxy, dynamo, adapter]) await part?.stop();
  });

  /** Decides the ticket batch on a new table with `shadowEndpointName`; returns the table's outcomes and shadow records. */
  async function decideBatch(shadowEndpointName: string) {
    const table = `outcomes-${randomUUID().slice(0, 8)}`;
    await dynamodb.send(new CreateTableCommand(outcomesTableDefinition(table)));
    const deps = await createDecideDeps(
      {
        outcomesTable: table,
        endpointName: "decisions",
        policyDir: "policies",
        deadlineMarginMs: 10_000,
        maxConcurrentGroups: 4,
        maxAttempts: 6,
        retryBaseDelayMs: 10,
        retryMaxDelayMs: 50,
        unknownPolicyWaitSeconds: 0,
        shadowEndpointName,
        shadowTimeoutMs: 60_000,
      },
      {
        sagemakerRuntime: sagemaker,
        dynamodb,
        policies,
        logger: new Logger({ serviceName: "decide", logLevel: "ERROR" }),
        metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
      },
    );
    const handler = createDecideHandler(deps);
    const context = createLambdaContext({ functionName: "decide", region: REGION, timeoutMs: 120_000 });
    const { result } = await captureStdout(() => handler(ticketBatch, context));
    const outcomes = await Promise.all(
      ids.map(async (id) => {
        const output = await documents.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: "policy = :p AND id = :i",
            ExpressionAttributeValues: { ":p": "ticket-routing", ":i": id },
            ConsistentRead: true,
          }),
        );
        return output.Items?.[0] as Outcome;
      }),
    );
    const records = await new ShadowRecordStore({ client: documents, tableName: table }).latest(
      "ticket-routing",
    );
    return { result, outcomes, records };
  }

  /**
   * The batch decided with the candidate answering, once for the file: the first test checks it,
   * the second compares the failing and absent candidate's runs with it. Whichever test runs first
   * decides it (with the proxy's counters reset just before), so each test also runs alone.
   */
  let withCandidate: ReturnType<typeof decideBatch> | undefined;
  const candidateBatch = () => {
    withCandidate ??= decideBatch("candidate");
    return withCandidate;
  };

  /** What the live pipeline decided, without times (they differ from run to run). */
  const decisions = (outcomes: Outcome[]) =>
    outcomes.map((outcome) => ({ id: outcome.id, status: outcome.status, answers: outcome.answers }));

  it("asks the candidate in the bulk lane for the sampled items and keeps their results beside the live outcomes", async () => {
    assert.ok(
      sampled.length > 0 && sampled.length < ids.length,
      `${sampled.length} of ${ids.length} sampled`,
    );
    proxy.reset();
    lanes.length = 0;

    const { result, outcomes, records } = await candidateBatch();

    assert.deepEqual(result.batchItemFailures, []);
    assert.ok(outcomes.every((outcome) => outcome?.policy_version === "3"));
    assert.deepEqual(records.map((record) => record.item_id).sort(), sampled);
    assert.ok(proxy.requests > 0 && proxy.requests <= sampled.length, `${proxy.requests} candidate calls`);
    assert.ok(
      lanes.every((lane) => lane === "lane=bulk"),
      lanes.join(" "),
    );
    const live = new Map(outcomes.map((outcome) => [outcome.id, outcome]));
    for (const record of records) {
      assert.equal(record.failure, undefined, record.item_id);
      assert.equal(record.candidate.name, "strict");
      assert.equal(record.candidate.endpoint, "candidate");
      assert.equal(record.candidate.policy_version, "3-strict");
      assert.equal(record.candidate.model_sha256, live.get(record.item_id)?.model_sha256);
      assert.equal(record.live_updated_at, live.get(record.item_id)?.updated_at);
      // The same model, stricter thresholds: what stood live on the model's answer now falls back.
      const modelAnswers = Object.values(record.result?.answers ?? {}).filter((a) => a.source === "model");
      assert.deepEqual(modelAnswers, [], record.item_id);
    }
  });

  it("leaves the live outcomes as they are when the candidate fails (one attempt) or is absent, and records why", async () => {
    proxy.reset();
    const reference = await candidateBatch();
    proxy.reset();
    proxy.fail(503);

    const failing = await decideBatch("candidate");
    const calls = proxy.requests;
    proxy.reset();
    const absent = await decideBatch("");

    for (const [name, run] of [
      ["failing", failing],
      ["absent", absent],
    ] as const) {
      assert.deepEqual(run.result.batchItemFailures, [], name);
      assert.deepEqual(decisions(run.outcomes), decisions(reference.outcomes), name);
      assert.deepEqual(run.records.map((record) => record.item_id).sort(), sampled, name);
      assert.ok(
        run.records.every((record) => record.result === undefined && record.failure !== undefined),
        name,
      );
    }
    assert.ok(calls > 0 && calls <= sampled.length, `one attempt per group: ${calls} calls`);
    assert.ok(failing.records.every((record) => /503|failed/i.test(record.failure?.reason ?? "")));
    assert.ok(absent.records.every((record) => record.failure?.error === "CandidateEndpointAbsentError"));
  });
});
