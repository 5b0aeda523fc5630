/**
 * The console's drift route on DynamoDB Local: `GET /api/policies/{policy}/drift` through the
 * router and the real ReviewApi, over outcomes of ticket-routing written by the outcomes table's
 * writer with a planted shift an hour before the clock.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { OutcomeStore, outcomesTableDefinition } from "../../../core/outcomes/index.js";
import { loadPolicies } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../core/review/ReviewApi.js";
import { routeReviewRequest } from "../../../core/review/routeReviewRequest.js";
import { type DynamoDbLocal, LOCAL_CREDENTIALS, startDynamoDbLocal } from "../../../local/index.js";
import { generateTraffic } from "../../support/driftTraffic.js";

const HOUR = 3_600_000;
const START = Date.parse("2026-12-01T00:00:00.000Z");
/** 24 hours of baseline, then the shifted hour. */
const SHIFT = START + 24 * HOUR;
const NOW = SHIFT + HOUR;
const QUEUE_LABELS = [
  "billing",
  "technical_support",
  "account_access",
  "orders_shipping",
  "sales",
  "security",
  "legal",
  "triage",
];

/** A distribution over the queue's labels that favours `label` with probability `p`. */
function favouring(label: string, p: number): Record<string, number> {
  const rest = (1 - p) / (QUEUE_LABELS.length - 1);
  return Object.fromEntries(QUEUE_LABELS.map((each) => [each, each === label ? p : rest]));
}

describe("GET /api/policies/{policy}/drift on DynamoDB Local (integration)", () => {
  let dynamo: DynamoDbLocal;
  let client: DynamoDBClient;
  let api: ReviewApi;

  before(async () => {
    dynamo = await startDynamoDbLocal({ env: process.env });
    client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
    });
    await client.send(new CreateTableCommand(outcomesTableDefinition("outcomes")));
    const documents = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const store = new OutcomeStore({
      client: documents,
      tableName: "outcomes",
      retry: new RetryPolicy({ maxAttempts: 3 }),
    });
    const outcomes = generateTraffic({
      policy: "ticket-routing",
      question: "queue",
      start: START,
      hours: 25,
      perHour: 60,
      kinds: [
        { name: "invoice", distribution: favouring("billing", 0.85) },
        { name: "login", distribution: favouring("account_access", 0.8) },
        { name: "parcel", distribution: favouring("orders_shipping", 0.8) },
      ],
      mixAt: (at): Record<string, number> => (at >= SHIFT ? { parcel: 1 } : { invoice: 0.6, login: 0.4 }),
      threshold: 0.55,
      fallback: "triage",
      seed: 5,
    });
    for (let index = 0; index < outcomes.length; index += 8) {
      await Promise.all(
        outcomes
          .slice(index, index + 8)
          .map((outcome) => store.put(outcome, { deadline: new Deadline(Date.now() + 60_000) })),
      );
    }
    api = new ReviewApi({
      client: documents,
      tableName: "outcomes",
      policies: await loadPolicies(join(new URL("../../..", import.meta.url).pathname, "policies")),
      now: () => new Date(NOW),
    });
  });

  after(async () => {
    client?.destroy();
    await dynamo?.stop();
  });

  it("answers each of the policy's questions with its shares before and now, the distance, the moved options and flags", async () => {
    const response = await routeReviewRequest(api, {
      method: "GET",
      path: "/api/policies/ticket-routing/drift",
      query: {},
    });

    assert.equal(response.status, 200);
    const body = response.body as {
      over_threshold: boolean;
      questions: {
        question: string;
        over_threshold: boolean;
        distance: number | null;
        answers: { option: string }[];
        moved: { option: string; baseline: number; window: number }[];
        flags: { kind: string; option: string }[];
      }[];
    };
    assert.deepEqual(
      body.questions.map((question) => question.question),
      ["queue", "priority", "needs_human"],
    );
    const [queue, priority] = body.questions;
    assert.ok(queue !== undefined && priority !== undefined);
    assert.equal(body.over_threshold, true);
    assert.equal(queue.over_threshold, true);
    assert.deepEqual(
      queue.answers.map((answer) => answer.option),
      QUEUE_LABELS,
    );
    assert.deepEqual(queue.moved.map((moved) => moved.option).sort(), [
      "account_access",
      "billing",
      "orders_shipping",
    ]);
    assert.ok(queue.flags.some((flag) => flag.kind === "rare" && flag.option === "legal"));
    assert.equal(priority.distance, null, "no outcome answers priority here");
  });

  it("refuses a since that is not a time before now (400) and an unknown policy (404)", async () => {
    const bad = await routeReviewRequest(api, {
      method: "GET",
      path: "/api/policies/ticket-routing/drift",
      query: { since: "yesterday" },
    });
    const unknown = await routeReviewRequest(api, {
      method: "GET",
      path: "/api/policies/nope/drift",
      query: {},
    });

    assert.equal(bad.status, 400);
    assert.equal(unknown.status, 404);
  });
});
