/**
 * reviewOutcome's semantics on an in-memory table (the conditional write against DynamoDB Local
 * is tested in outcomesCommand.integration.test.ts and reviewHistory.integration.test.ts): partial
 * reviews keep the status, audit items ask for every model answer, changing a person's answer is
 * an amendment, and the review history is bounded by dropping the oldest superseded entries,
 * never a standing answer, so no number of reviewers locks the next one out.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  AmendRequiredError,
  MAX_KEPT_REVIEWS,
  openQuestions,
  ReviewHistoryFullError,
  reviewOutcome,
  type StoredOutcome,
} from "../../../core/outcomes/index.js";
import { applyPolicy, loadPolicies, type Policy } from "../../../core/policy/index.js";
import { formatReviewHistory } from "../../../operations/outcomes/index.js";

const POLICIES = fileURLToPath(new URL("../../../policies/", import.meta.url));

/** A one-item table: Get returns it, a conditional Put replaces it when updated_at still matches. */
function tableOf(item: StoredOutcome) {
  let stored: StoredOutcome = item;
  const client = {
    async send(command: unknown) {
      if (command instanceof GetCommand) return { Item: structuredClone(stored) };
      if (command instanceof PutCommand) {
        const values = command.input.ExpressionAttributeValues ?? {};
        if (values[":updated"] !== stored.updated_at) {
          throw Object.assign(new Error("conditional"), { name: "ConditionalCheckFailedException" });
        }
        stored = structuredClone(command.input.Item) as StoredOutcome;
        return {};
      }
      throw new Error(`unexpected command ${String(command)}`);
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, current: () => stored };
}

function outcome(policy: Policy, priority: Record<string, number>, audit?: { rate: number; draw: number }) {
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
      priority: { type: "choice", probabilities: priority },
      needs_human: { type: "noul", noul: 0.9 },
    },
  );
  return {
    policy: policy.name,
    id: "t-1",
    policy_status: `${policy.name}#${audit ? "audit" : decision.status}`,
    status: decision.status,
    answers: decision.answers,
    rules_fired: decision.rules_fired,
    source: { kind: "sqs" },
    created_at: "2026-12-01T10:00:00.000Z",
    updated_at: "2026-12-01T10:00:00.000Z",
    ...(audit ? { audit } : {}),
  } as StoredOutcome;
}

describe("reviewOutcome", async () => {
  const policy = (await loadPolicies(POLICIES)).get("ticket-routing") as Policy;
  let tick = 0;
  const now = () => new Date(Date.UTC(2026, 11, 1, 11, 0, tick++));

  it("keeps the status while a question that stood on its fallback has no human answer", async () => {
    const table = tableOf(outcome(policy, { P1: 0.3, P2: 0.3, P3: 0.2, P4: 0.2 }));
    assert.deepEqual(openQuestions(table.current()), ["queue", "priority"]);

    const first = await reviewOutcome({
      ...table,
      tableName: "t",
      policy,
      id: "t-1",
      answers: { queue: "sales" },
      by: "ana",
      now,
    });

    assert.deepEqual(first.remaining, ["priority"]);
    assert.equal(table.current().status, "fallback");
    assert.equal(table.current().policy_status, "ticket-routing#fallback");
    const second = await reviewOutcome({
      ...table,
      tableName: "t",
      policy,
      id: "t-1",
      answers: { priority: "P3" },
      by: "bob",
      now,
    });
    assert.deepEqual(second.remaining, []);
    assert.equal(table.current().status, "reviewed");
    assert.deepEqual(
      table.current().reviews?.map((review) => review.by),
      ["ana", "bob"],
    );
  });

  it("asks an audit item for every model answer, and its status stays decided until all have one", async () => {
    const table = tableOf(
      outcome(policy, { P1: 0.05, P2: 0.9, P3: 0.03, P4: 0.02 }, { rate: 0.1, draw: 0.04 }),
    );
    // Only queue is on its fallback here; make it a decided item by a confident queue answer.
    const decided = { ...table.current(), status: "decided" as const };
    for (const answer of Object.values(decided.answers ?? {})) answer.source = "model";
    const audit = tableOf(decided);
    assert.deepEqual(openQuestions(audit.current()), ["queue", "priority", "needs_human"]);

    const partial = await reviewOutcome({
      ...audit,
      tableName: "t",
      policy,
      id: "t-1",
      answers: { queue: "billing", priority: "P2" },
      now,
    });

    assert.deepEqual(partial.remaining, ["needs_human"]);
    assert.equal(audit.current().status, "decided");
    assert.equal(audit.current().policy_status, "ticket-routing#audit");
    await reviewOutcome({
      ...audit,
      tableName: "t",
      policy,
      id: "t-1",
      answers: { needs_human: "yes" },
      now,
    });
    assert.equal(audit.current().status, "reviewed");
    assert.deepEqual(
      audit.current().audit,
      { rate: 0.1, draw: 0.04 },
      "still marked for calibrate's weights",
    );
  });

  it("refuses to change a person's answer unless the review is an amendment, and records it as one", async () => {
    const table = tableOf(outcome(policy, { P1: 0.05, P2: 0.8, P3: 0.1, P4: 0.05 }));
    await reviewOutcome({
      ...table,
      tableName: "t",
      policy,
      id: "t-1",
      answers: { queue: "billing" },
      by: "ana",
      now,
    });
    assert.equal(table.current().status, "reviewed");

    await assert.rejects(
      reviewOutcome({
        ...table,
        tableName: "t",
        policy,
        id: "t-1",
        answers: { queue: "sales" },
        by: "bob",
        now,
      }),
      (error: unknown) =>
        error instanceof AmendRequiredError &&
        error.outcome.status === "reviewed" &&
        error.questions[0] === "queue",
    );
    assert.equal(table.current().answers?.queue?.answer, "billing", "ana's answer stands");

    await reviewOutcome({
      ...table,
      tableName: "t",
      policy,
      id: "t-1",
      answers: { queue: "sales" },
      by: "bob",
      amend: true,
      now,
    });
    assert.deepEqual(
      table.current().reviews?.map((review) => [review.by, review.amendment]),
      [
        ["ana", undefined],
        ["bob", true],
      ],
    );
    assert.match(
      formatReviewHistory(table.current()).at(-1) ?? "",
      /amended by bob: queue=sales \(was billing\)/,
    );
  });

  it("keeps one entry per reviewer and question: a re-review replaces the reviewer's own, never another's", async () => {
    const table = tableOf(outcome(policy, { P1: 0.3, P2: 0.3, P3: 0.2, P4: 0.2 }));
    const review = (by: string, answers: Record<string, string>) =>
      reviewOutcome({ ...table, tableName: "t", policy, id: "t-1", answers, by, amend: true, now });
    await review("ana", { queue: "billing", priority: "P2" });
    await review("carl", { queue: "sales" });
    await review("ana", { queue: "sales" });

    const reviews = table.current().reviews ?? [];
    assert.deepEqual(
      reviews.map((entry) => [entry.by, entry.answers]),
      [
        ["ana", { priority: "P2" }],
        ["carl", { queue: "sales" }],
        ["ana", { queue: "sales" }],
      ],
      "ana's earlier queue answer is replaced by her new one; carl's entry is untouched",
    );
    assert.deepEqual(reviews[2]?.replaces_own, [reviews[0]?.at]);
    assert.equal(reviews[2]?.previous_answers.queue?.answer, "sales", "what stood before is kept");
  });

  it(`keeps taking new reviewers past ${MAX_KEPT_REVIEWS} entries: the oldest superseded entries go, standing answers stay`, async () => {
    const table = tableOf(outcome(policy, { P1: 0.05, P2: 0.8, P3: 0.1, P4: 0.05 }));
    const labels = ["billing", "sales"];
    const review = (by: string, answers: Record<string, string>) =>
      reviewOutcome({ ...table, tableName: "t", policy, id: "t-1", answers, by, amend: true, now });
    await review("priya", { priority: "P3" });
    for (let round = 0; round < MAX_KEPT_REVIEWS + 10; round += 1)
      await review(`reviewer-${round}`, { queue: labels[round % 2] ?? "billing" });

    const current = table.current();
    const reviews = current.reviews ?? [];
    assert.equal(reviews.length, MAX_KEPT_REVIEWS, "bounded");
    assert.equal(current.reviews_dropped, 11, "the oldest superseded entries went, counted");
    assert.equal(reviews[0]?.by, "priya", "priya's standing answer is never dropped, however old");
    assert.equal(current.answers?.priority?.answer, "P3");
    assert.equal(reviews.at(-1)?.by, `reviewer-${MAX_KEPT_REVIEWS + 9}`, "the newest reviewer got in");
    assert.deepEqual(
      reviews.at(-1)?.previous_answers.queue,
      { answer: labels[(MAX_KEPT_REVIEWS + 8) % 2], source: "human", by: `reviewer-${MAX_KEPT_REVIEWS + 8}` },
      "the answer it replaced keeps its reviewer's name",
    );
    assert.match(formatReviewHistory(current).join("\n"), /11 older superseded review\(s\) dropped/);
  });

  it("refuses a review only when the answers that would stand pass the byte bound alone", async () => {
    const table = tableOf(outcome(policy, { P1: 0.05, P2: 0.8, P3: 0.1, P4: 0.05 }));
    const review = (by: string, answers: Record<string, string>) =>
      reviewOutcome({ ...table, tableName: "t", policy, id: "t-1", answers, by, amend: true, now });
    // Names of 30,000 characters: two standing entries pass 64 KiB alone.
    await review("a".repeat(30_000), { priority: "P3" });
    const before = table.current();
    await assert.rejects(
      review("b".repeat(40_000), { queue: "sales" }),
      (error: unknown) => error instanceof ReviewHistoryFullError && error.limits.bytes === 64 * 1024,
    );
    assert.deepEqual(table.current(), before, "nothing written");
  });

  it("refuses a write when the outcome changed since it was read", async () => {
    const table = tableOf(outcome(policy, { P1: 0.05, P2: 0.8, P3: 0.1, P4: 0.05 }));
    await assert.rejects(
      reviewOutcome({
        ...table,
        tableName: "t",
        policy,
        id: "t-1",
        answers: { queue: "sales" },
        expectUpdatedAt: "2026-12-01T09:00:00.000Z",
        now,
      }),
      { name: "ReviewConflictError" },
    );
    assert.equal(table.current().status, "fallback");
  });
});
