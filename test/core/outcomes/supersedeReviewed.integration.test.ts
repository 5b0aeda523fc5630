/**
 * The decide path's write (OutcomeStore.record with a supersede marker, as a redecide or a
 * redriven message carries it) never replaces an outcome a person reviewed unless the marker says
 * so, on DynamoDB Local (127.0.0.1): refused with a reason for a version marker and for `*`, also
 * when the review lands between the store's read and its write (the guard is the write's own
 * condition), and done only behind `replace-reviews:`, the review kept in the history — every
 * reviewer's answers under their own name (a redecide planned and sent by operations/outcomes
 * through fauxqs).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import {
  type Outcome,
  type OutcomeReview,
  OutcomeStore,
  outcomesTableDefinition,
  reviewOutcome,
  type StoredOutcome,
  SUPERSEDE_ATTRIBUTE,
  supersedeMarkerText,
} from "../../../core/outcomes/index.js";
import { loadPolicies, type Policy } from "../../../core/policy/index.js";
import { type DynamoDbLocal, LOCAL_CREDENTIALS, startDynamoDbLocal } from "../../../local/index.js";
import { startFauxqs } from "../../../local/services/startFauxqs.js";
import { planRedecide, sendRedecides } from "../../../operations/outcomes/index.js";

const TABLE = "outcomes";

function outcome(id: string, updatedAt: string, extra: Partial<Outcome> = {}): Outcome {
  return {
    policy: "ticket-routing",
    id,
    policy_status: "ticket-routing#fallback",
    status: "fallback",
    answers: {
      queue: {
        answer: "triage",
        probability: 0.45,
        distribution: { billing: 0.3, triage: 0.45, sales: 0.25 },
        threshold: 0.55,
        source: "fallback",
        model_answer: "triage",
      },
    },
    rules_fired: [],
    source: { kind: "sqs", message_id: `m-${id}`, receive_count: 1 },
    payload_sha256: "a".repeat(64),
    created_at: updatedAt,
    updated_at: updatedAt,
    ...extra,
  };
}

/** A person's review as `reviewOutcome` writes it (status, answer, `review`, `reviews`). */
function reviewedBy(by: string, standing: Outcome, at: string): StoredOutcome {
  const review: OutcomeReview = {
    by,
    at,
    previous_status: standing.status,
    previous_updated_at: standing.updated_at,
    answers: { queue: "billing" },
    previous_answers: { queue: { answer: "triage", source: "fallback" } },
    remaining: [],
  };
  return {
    ...standing,
    status: "reviewed",
    policy_status: "ticket-routing#reviewed",
    updated_at: at,
    answers: {
      queue: {
        ...(standing.answers?.queue as NonNullable<Outcome["answers"]>[string]),
        answer: "billing",
        source: "human",
      },
    },
    review,
    reviews: [review],
  };
}

describe("a supersede and a person's review on DynamoDB Local (integration)", () => {
  let dynamo: DynamoDbLocal;
  let client: DynamoDBClient;
  let documents: DynamoDBDocumentClient;
  const deadline = () => new Deadline(Date.now() + 30_000);
  const retry = new RetryPolicy({ maxAttempts: 2, baseDelayMs: 1 });

  before(async () => {
    dynamo = await startDynamoDbLocal({ env: process.env });
    client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    await client.send(new CreateTableCommand(outcomesTableDefinition(TABLE)));
  });

  after(async () => {
    client?.destroy();
    await dynamo?.stop();
  });

  async function stored(id: string): Promise<StoredOutcome> {
    const got = await documents.send(
      new GetCommand({ TableName: TABLE, Key: { policy: "ticket-routing", id }, ConsistentRead: true }),
    );
    return got.Item as StoredOutcome;
  }

  const redecided = (id: string) =>
    outcome(id, "2026-01-01T12:00:00.000Z", {
      status: "decided",
      policy_status: "ticket-routing#decided",
      source: { kind: "sqs", message_id: `m-redecide-${id}`, receive_count: 1 },
    });

  it("refuses a supersede of a reviewed outcome, for its version and for *, and says why", async () => {
    const store = new OutcomeStore({ client: documents, tableName: TABLE, retry });
    const first = outcome("RV-1", "2026-01-01T10:00:00.000Z");
    await store.put(first, { deadline: deadline() });
    const reviewed = reviewedBy("alice", first, "2026-01-01T11:00:00.000Z");
    await documents.send(new PutCommand({ TableName: TABLE, Item: reviewed }));

    for (const marker of [reviewed.updated_at, "*"]) {
      const result = await store.record(redecided("RV-1"), { deadline: deadline(), supersede: marker });
      assert.equal(result.recorded, false, `marker ${marker}`);
      assert.match(
        result.recorded ? "" : (result.refused ?? ""),
        /a person reviewed the outcome that stands \(reviewed, by alice/,
      );
    }
    assert.deepEqual(await stored("RV-1"), reviewed, "the review stands as it was");
  });

  it("keeps a review that lands between the store's read and its write: the write's condition refuses", async () => {
    const first = outcome("RV-2", "2026-01-01T10:00:00.000Z");
    await new OutcomeStore({ client: documents, tableName: TABLE, retry }).put(first, {
      deadline: deadline(),
    });
    // A person's review lands just before the superseding write, keeping updated_at as read, so
    // only the review condition itself can stop the write.
    let landed = false;
    const racing = {
      async send(command: unknown) {
        const input = (command as { input?: { ConditionExpression?: string } }).input;
        if (!landed && command instanceof PutCommand && input?.ConditionExpression?.includes("#u = :read")) {
          landed = true;
          await documents.send(
            new UpdateCommand({
              TableName: TABLE,
              Key: { policy: "ticket-routing", id: "RV-2" },
              UpdateExpression: "SET #s = :s, policy_status = :ps, review = :r, reviews = :rs",
              ExpressionAttributeNames: { "#s": "status" },
              ExpressionAttributeValues: {
                ":s": "reviewed",
                ":ps": "ticket-routing#reviewed",
                ":r": reviewedBy("bob", first, first.updated_at).review,
                ":rs": reviewedBy("bob", first, first.updated_at).reviews,
              },
            }),
          );
        }
        return await documents.send(command as PutCommand);
      },
    } as unknown as DynamoDBDocumentClient;
    const store = new OutcomeStore({ client: racing, tableName: TABLE, retry });

    const result = await store.record(redecided("RV-2"), { deadline: deadline(), supersede: "*" });

    assert.ok(landed, "the review landed during the supersede");
    assert.equal(result.recorded, false);
    assert.match(result.recorded ? "" : (result.refused ?? ""), /a person reviewed/);
    const now = await stored("RV-2");
    assert.equal(now.status, "reviewed");
    assert.equal(now.review?.by, "bob");
  });

  it("replaces a reviewed outcome only behind replace-reviews:, keeping the review in the history", async () => {
    const store = new OutcomeStore({ client: documents, tableName: TABLE, retry });
    const first = outcome("RV-3", "2026-01-01T10:00:00.000Z");
    await store.put(first, { deadline: deadline() });
    const reviewed = reviewedBy("alice", first, "2026-01-01T11:00:00.000Z");
    await documents.send(new PutCommand({ TableName: TABLE, Item: reviewed }));

    const marker = supersedeMarkerText(reviewed.updated_at, { replaceReviews: true });
    const result = await store.record(redecided("RV-3"), { deadline: deadline(), supersede: marker });

    assert.equal(result.recorded, true);
    const now = await stored("RV-3");
    assert.equal(now.status, "decided");
    assert.equal(now.supersedes?.requested, `replace-reviews:${reviewed.updated_at}`);
    assert.equal(now.history?.at(-1)?.status, "reviewed");
    assert.equal(now.history?.at(-1)?.reviewed_by, "alice");
  });

  it("keeps every reviewer's answer under their name through a redecide --replace-reviews", async () => {
    const policy = (await loadPolicies(new URL("../../../policies/", import.meta.url).pathname)).get(
      "ticket-routing",
    ) as Policy;
    const store = new OutcomeStore({ client: documents, tableName: TABLE, retry });
    const queue = outcome("RV-4", "2026-01-01T10:00:00.000Z").answers?.queue as NonNullable<
      Outcome["answers"]
    >[string];
    const first = outcome("RV-4", "2026-01-01T10:00:00.000Z", {
      answers: {
        queue,
        priority: { ...queue, answer: "P2", distribution: { P1: 0.3, P2: 0.4, P3: 0.3 }, probability: 0.4 },
      },
      work_item: JSON.stringify({ id: "RV-4", policy: "ticket-routing", state: "double charge" }),
    });
    await store.put(first, { deadline: deadline() });
    let tick = 0;
    const now = () => new Date(Date.UTC(2026, 0, 1, 11, 0, tick++));
    const review = (by: string, answers: Record<string, string>) =>
      reviewOutcome({
        client: documents,
        tableName: TABLE,
        policy,
        id: "RV-4",
        answers,
        by,
        amend: true,
        now,
      });
    await review("alice", { queue: "billing" });
    await review("bob", { priority: "P1" });
    await review("carol", { queue: "sales" });
    const reviewed = await stored("RV-4");

    // `outcomes redecide RV-4 --replace-reviews`: planned and sent by operations/outcomes.
    const plan = planRedecide([reviewed], { replaceReviews: true });
    assert.equal(plan.ready.length, 1);
    await using sqs = await startFauxqs();
    const client = new SQSClient({
      endpoint: sqs.endpoint,
      region: sqs.region,
      credentials: LOCAL_CREDENTIALS,
      useQueueUrlAsEndpoint: false,
    });
    try {
      const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: "work" }));
      const sent = await sendRedecides(plan.ready, {
        sqs: client,
        queueUrl: QueueUrl ?? "",
        replaceReviews: true,
      });
      assert.ok(sent.every((result) => result.ok));
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({ QueueUrl, MessageAttributeNames: ["All"], WaitTimeSeconds: 1 }),
      );
      const marker = Messages[0]?.MessageAttributes?.[SUPERSEDE_ATTRIBUTE]?.StringValue;
      assert.equal(marker, `replace-reviews:${reviewed.updated_at}`);
      // The decide path's write with the message's marker.
      const result = await store.record(redecided("RV-4"), { deadline: deadline(), supersede: marker });
      assert.equal(result.recorded, true);
    } finally {
      client.destroy();
    }

    const now4 = await stored("RV-4");
    const entry = now4.history?.at(-1);
    assert.equal(entry?.status, "reviewed");
    assert.deepEqual(
      entry?.reviews?.map((item) => [item.by, item.answers]),
      [
        ["alice", { queue: "billing" }],
        ["bob", { priority: "P1" }],
        ["carol", { queue: "sales" }],
      ],
      "every reviewer's answers, under their own name",
    );
    assert.equal(entry?.answers?.queue?.by, "carol", "the standing queue answer is carol's");
    assert.equal(
      entry?.answers?.priority?.by,
      "bob",
      "the standing priority answer is bob's, not the last reviewer's",
    );
  });
});
