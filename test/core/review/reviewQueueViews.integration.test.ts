/**
 * What the console's page reads besides the queue's items, through its HTTP API on DynamoDB
 * Local: how many items wait (`GET /api/queue/count`, per policy or all, bounded), a question filter
 * that no policy has refused with the questions named (a typo would otherwise list nothing, as if
 * nothing waited), the open questions of an item in its policy's order, and the drift route's
 * settings (the answers each side needs, the share that counts as moved).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { loadPolicies } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../core/review/ReviewApi.js";
import {
  type ReviewConsoleTables,
  startReviewConsoleTables,
} from "../../support/startReviewConsoleTables.js";
import { waitingOutcome } from "../../support/waitingOutcome.js";

describe("the queue's count, question names and question order through the console's HTTP API (DynamoDB Local)", () => {
  let local: ReviewConsoleTables;
  let url: string;
  let table: string;

  const get = async (path: string) => {
    const answer = await fetch(new URL(path, url));
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };

  before(async () => {
    local = await startReviewConsoleTables();
    const at = (second: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, second)).toISOString();
    ({ url, table } = await local.serve(
      [
        ...Array.from({ length: 7 }, (_, index) =>
          waitingOutcome("ticket-routing", `tr-${index}`, at(index)),
        ),
        waitingOutcome("ticket-routing", "audited", at(10), { audit: true }),
        waitingOutcome("incident-priority", "inc-1", at(11)),
        waitingOutcome("incident-priority", "inc-2", at(12)),
      ],
      { table: "views" },
    ));
  });

  after(async () => {
    await local?.stop();
  });

  it("counts the items waiting in a policy (fallbacks and audit items) or in all", async () => {
    assert.deepEqual((await get("api/queue/count?policy=ticket-routing")).body, {
      waiting: 8,
      policies: ["ticket-routing"],
    });
    const all = await get("api/queue/count");
    assert.equal(all.status, 200);
    assert.equal(all.body.waiting, 10);
    assert.deepEqual(all.body.policies, ["batch-classification", "incident-priority", "ticket-routing"]);
    assert.equal(all.body.more, undefined);
    assert.equal((await get("api/queue/count?policy=nope")).status, 404);
  });

  it("stops counting at its bound and says that at least so many wait", async () => {
    const { table: bounded } = await local.serve(
      Array.from({ length: 12 }, (_, index) =>
        waitingOutcome(
          "ticket-routing",
          `b-${index}`,
          new Date(Date.UTC(2026, 11, 1, 9, 0, index)).toISOString(),
        ),
      ),
    );
    const api = new ReviewApi({
      client: local.doc,
      tableName: bounded,
      policies: await loadPolicies(new URL("../../../policies", import.meta.url).pathname),
    });
    assert.deepEqual(await api.waiting("ticket-routing", 5), {
      waiting: 5,
      more: true,
      policies: ["ticket-routing"],
    });
    assert.deepEqual(await api.waiting("ticket-routing", 12), { waiting: 12, policies: ["ticket-routing"] });
  });

  it("refuses a question filter no policy has with 400, naming the questions", async () => {
    const one = await get("api/queue?policy=ticket-routing&question=prority");
    assert.equal(one.status, 400);
    assert.deepEqual(one.body.path, ["query", "question"]);
    assert.equal(
      one.body.error,
      'query.question: ticket-routing has no question "prority"; its questions are queue, priority, needs_human',
    );
    const all = await get("api/queue?question=prority");
    assert.equal(all.status, 400);
    assert.match(
      String(all.body.error),
      /no policy has a question "prority"; the questions are batch-classification: document_type; incident-priority: severity, owning_team, customer_impact; ticket-routing: queue, priority, needs_human/,
    );
    // A question of another policy than the one filtered is unknown there.
    assert.equal((await get("api/queue?policy=ticket-routing&question=severity")).status, 400);
    // A known question that nothing waits on lists nothing, as before.
    const none = await get("api/queue?policy=ticket-routing&question=needs_human");
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.items, []);
  });

  it("gives an item's open questions in its policy's order, whatever the order of its stored answers", async () => {
    const outcome = waitingOutcome("ticket-routing", "reordered", "2026-12-01T11:00:00.000Z", {
      alsoPriority: true,
    });
    const answers = outcome.answers ?? {};
    // needs_human, priority, queue: the policy declares queue, priority, needs_human.
    const stored: StoredOutcome = {
      ...outcome,
      answers: {
        needs_human: {
          ...(answers.queue as NonNullable<typeof answers.queue>),
          answer: true,
          source: "fallback",
          distribution: { true: 0.5, false: 0.5 },
        },
        priority: answers.priority as NonNullable<typeof answers.priority>,
        queue: answers.queue as NonNullable<typeof answers.queue>,
      },
    };
    await local.doc.send(new PutCommand({ TableName: table, Item: stored }));
    const item = await get("api/items/ticket-routing/reordered");
    assert.deepEqual(item.body.open_questions, ["queue", "priority", "needs_human"]);
    const queue = (await get("api/queue?policy=ticket-routing&limit=1")).body as {
      items: { id: string; open_questions: string[] }[];
    };
    assert.equal(queue.items[0]?.id, "reordered");
    assert.deepEqual(queue.items[0]?.open_questions, ["queue", "priority", "needs_human"]);
  });

  it("gives the drift route's settings beside its report", async () => {
    const drift = await get("api/policies/ticket-routing/drift");
    assert.equal(drift.status, 200);
    assert.deepEqual(drift.body.settings, { min_outcomes: 50, moved_share: 0.05 });
  });
});
