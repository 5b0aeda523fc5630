/**
 * A person's review is never erased by another's, on DynamoDB Local (127.0.0.1), through
 * `reviewOutcome` and the review console's API route (`routeReviewRequest` over `ReviewApi`):
 *
 * - after reviews by alice and bob, 25 re-reviews by a third reviewer keep bob's (and alice's)
 *   entry: a reviewer's re-review replaces only their own earlier answer, nothing is dropped;
 * - re-reviewing an item already `reviewed` without the amend flag is refused (409
 *   `amend_required` from the API) and changes nothing; with it, it is recorded as an amendment;
 * - no number of reviewers fills the history: past its bound the oldest superseded entries go
 *   (counted), an answer that stands is never dropped, and an 18th reviewer (and every later one)
 *   can review, through `reviewOutcome` and the API.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  AmendRequiredError,
  MAX_KEPT_REVIEWS,
  outcomesTableDefinition,
  reviewOutcome,
  type StoredOutcome,
} from "../../../core/outcomes/index.js";
import { applyPolicy, loadPolicies, type Policy, type PolicySet } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../core/review/ReviewApi.js";
import { routeReviewRequest } from "../../../core/review/routeReviewRequest.js";
import { type DynamoDbLocal, LOCAL_CREDENTIALS, startDynamoDbLocal } from "../../../local/index.js";
import { formatReviewHistory } from "../../../operations/outcomes/index.js";

const POLICIES = fileURLToPath(new URL("../../../policies/", import.meta.url));
const TABLE = "outcomes";

describe("review history on DynamoDB Local (integration)", () => {
  let dynamo: DynamoDbLocal;
  let documents: DynamoDBDocumentClient;
  let policies: PolicySet;
  let policy: Policy;
  let tick = 0;
  const now = () => new Date(Date.UTC(2026, 11, 1, 11, 0, 0, tick++));

  before(async () => {
    dynamo = await startDynamoDbLocal({ env: process.env });
    const client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
    });
    documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    await client.send(new CreateTableCommand(outcomesTableDefinition(TABLE)));
    policies = await loadPolicies(POLICIES);
    policy = policies.get("ticket-routing") as Policy;
  });

  after(async () => {
    documents?.destroy();
    await dynamo?.stop();
  });

  /** Stores a fallback outcome of `id` whose queue and priority stood on their fallback. */
  async function seeded(id: string): Promise<void> {
    const decision = applyPolicy(
      policy,
      {},
      {
        queue: {
          type: "choice",
          probabilities: Object.fromEntries(
            (policy.question("queue") as { labels: string[] }).labels.map((label) => [
              label,
              ({ billing: 0.3, technical_support: 0.25, triage: 0.45 } as Record<string, number>)[label] ?? 0,
            ]),
          ),
        },
        priority: { type: "choice", probabilities: { P1: 0.3, P2: 0.3, P3: 0.2, P4: 0.2 } },
        needs_human: { type: "noul", noul: 0.9 },
      },
    );
    const outcome = {
      policy: policy.name,
      id,
      policy_status: `${policy.name}#${decision.status}`,
      status: decision.status,
      answers: decision.answers,
      rules_fired: decision.rules_fired,
      source: { kind: "sqs", message_id: `m-${id}` },
      created_at: "2026-12-01T10:00:00.000Z",
      updated_at: "2026-12-01T10:00:00.000Z",
    };
    assert.equal(outcome.status, "fallback");
    await documents.send(new PutCommand({ TableName: TABLE, Item: outcome }));
  }

  async function stored(id: string): Promise<StoredOutcome> {
    const got = await documents.send(
      new GetCommand({ TableName: TABLE, Key: { policy: policy.name, id }, ConsistentRead: true }),
    );
    return got.Item as StoredOutcome;
  }

  const review = (id: string, by: string, answers: Record<string, string>, amend?: boolean) =>
    reviewOutcome({
      client: documents,
      tableName: TABLE,
      policy,
      id,
      answers,
      by,
      ...(amend === undefined ? {} : { amend }),
      now,
    });

  it("keeps bob's review after alice's, bob's and 25 re-reviews by a third reviewer", async () => {
    await seeded("H-1");
    await review("H-1", "alice", { queue: "billing" });
    await review("H-1", "bob", { priority: "P2" });
    assert.equal((await stored("H-1")).status, "reviewed");

    const labels = ["sales", "technical_support"];
    for (let round = 0; round < 25; round += 1)
      await review("H-1", "mallory", { queue: labels[round % 2] ?? "sales" }, true);

    const outcome = await stored("H-1");
    assert.deepEqual(
      outcome.reviews?.map((entry) => [entry.by, entry.answers]),
      [
        ["alice", { queue: "billing" }],
        ["bob", { priority: "P2" }],
        ["mallory", { queue: "sales" }],
      ],
      "every person's entry stays; mallory keeps only her newest",
    );
    assert.equal(outcome.reviews_dropped, undefined, "nothing dropped");
    assert.equal(outcome.reviews?.[2]?.amendment, true);
    assert.equal(outcome.answers?.queue?.answer, "sales");
    assert.equal(outcome.answers?.priority?.answer, "P2", "bob's answer stands");
    const history = formatReviewHistory(outcome);
    assert.match(history.join("\n"), /reviewed by bob: priority=P2/);
    assert.match(history.at(-1) ?? "", /amended by mallory: queue=sales \(was technical_support\)/);
  });

  it("refuses to review an item already reviewed without the amend flag, through the API too", async () => {
    await seeded("H-2");
    await review("H-2", "alice", { queue: "billing", priority: "P3" });
    const reviewed = await stored("H-2");
    assert.equal(reviewed.status, "reviewed");

    await assert.rejects(review("H-2", "bob", { queue: "sales" }), AmendRequiredError);
    const api = new ReviewApi({ client: documents, tableName: TABLE, policies, now });
    const post = (body: object) =>
      routeReviewRequest(api, {
        method: "POST",
        path: "/api/items/ticket-routing/H-2/review",
        query: {},
        body: JSON.stringify(body),
        reviewer: { name: "bob", source: "local" },
      });
    const refused = await post({ answers: { queue: "sales" }, expect_updated_at: reviewed.updated_at });
    assert.equal(refused.status, 409);
    assert.equal((refused.body as { reason: string }).reason, "amend_required");
    assert.deepEqual(await stored("H-2"), reviewed, "nothing written");

    const amended = await post({
      answers: { queue: "sales" },
      expect_updated_at: reviewed.updated_at,
      amend: true,
    });
    assert.equal(amended.status, 200);
    const outcome = await stored("H-2");
    assert.deepEqual(
      outcome.reviews?.map((entry) => [entry.by, entry.amendment]),
      [
        ["alice", undefined],
        ["bob", true],
      ],
    );
    assert.equal(outcome.review?.previous_answers.queue?.answer, "billing");
  });

  it("takes an 18th reviewer and every later one: the oldest superseded entries go, standing answers stay", async () => {
    await seeded("H-3");
    await review("H-3", "priya", { priority: "P3" });
    // 16 reviewers more (17 in all) fill the 20 entries: three of them review twice, a question each time.
    for (let round = 0; round < 16; round += 1) {
      await review("H-3", `reviewer-${round}`, { queue: round % 2 === 0 ? "billing" : "sales" }, true);
      if (round < 3)
        await review("H-3", `reviewer-${round}`, { needs_human: round % 2 === 0 ? "yes" : "no" }, true);
    }
    const full = await stored("H-3");
    assert.equal(full.reviews?.length, MAX_KEPT_REVIEWS, "17 reviewers filled the history");

    // The 18th reviewer, through the console's API route.
    const api = new ReviewApi({ client: documents, tableName: TABLE, policies, now });
    const accepted = await routeReviewRequest(api, {
      method: "POST",
      path: "/api/items/ticket-routing/H-3/review",
      query: {},
      body: JSON.stringify({
        answers: { queue: "billing" },
        expect_updated_at: full.updated_at,
        amend: true,
      }),
      reviewer: { name: "reviewer-18th", source: "local" },
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    // And 20 more through reviewOutcome, each a new name.
    for (let round = 0; round < 20; round += 1)
      await review("H-3", `late-${round}`, { queue: round % 2 === 0 ? "sales" : "billing" }, true);

    const outcome = await stored("H-3");
    const reviews = outcome.reviews ?? [];
    assert.equal(reviews.length, MAX_KEPT_REVIEWS, "bounded");
    assert.ok((outcome.reviews_dropped ?? 0) > 0, "the oldest superseded entries went, counted");
    assert.ok(
      reviews.some((entry) => entry.by === "priya" && entry.answers.priority === "P3"),
      "priya's standing answer stays however many came after",
    );
    assert.equal(reviews.at(-1)?.by, "late-19");
    assert.equal(outcome.answers?.queue?.answer, "billing");
    // Every answer still standing is in an entry under its reviewer's name.
    for (const [qid, answer] of Object.entries(outcome.answers ?? {}))
      if (answer.source === "human") {
        const last = reviews.findLast((entry) => qid in entry.answers);
        assert.equal(last?.answers[qid], answer.answer, `${qid}: its standing answer is in the history`);
        assert.ok(last?.by !== undefined);
      }
  });
});
