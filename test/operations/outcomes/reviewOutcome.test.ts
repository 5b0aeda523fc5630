/**
 * reviewOutcome's semantics on an in-memory table (the conditional write against DynamoDB Local
 * is tested in outcomesCommand.integration.test.ts): partial reviews keep the status, audit items
 * ask for every model answer, and the review history is bounded keeping the first review.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { MAX_KEPT_REVIEWS, type StoredOutcome } from "../../../functions/outcomes/index.js";
import { applyPolicy, loadPolicies, type Policy } from "../../../functions/policy/index.js";
import { formatReviewHistory, openQuestions, reviewOutcome } from "../../../operations/outcomes/index.js";

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

  it(`bounds the history at ${MAX_KEPT_REVIEWS} reviews, keeping the first and counting the dropped ones`, async () => {
    const table = tableOf(outcome(policy, { P1: 0.05, P2: 0.8, P3: 0.1, P4: 0.05 }));
    const labels = ["billing", "sales"];
    for (let round = 0; round < MAX_KEPT_REVIEWS + 5; round += 1) {
      await reviewOutcome({
        ...table,
        tableName: "t",
        policy,
        id: "t-1",
        answers: { queue: labels[round % 2] ?? "billing" },
        by: `reviewer-${round}`,
        now,
      });
    }
    const reviews = table.current().reviews ?? [];
    assert.equal(reviews.length, MAX_KEPT_REVIEWS);
    assert.equal(reviews[0]?.by, "reviewer-0");
    assert.equal(reviews[1]?.by, "reviewer-6");
    assert.equal(reviews.at(-1)?.by, `reviewer-${MAX_KEPT_REVIEWS + 4}`);
    assert.equal(table.current().reviews_dropped, 5);
    const history = formatReviewHistory(table.current());
    assert.match(history[1] ?? "", /5 older review\(s\) not kept/);
    assert.equal(history.length, 2 + MAX_KEPT_REVIEWS);
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
