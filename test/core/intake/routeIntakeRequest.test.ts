import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { Context } from "aws-lambda";
import { Webhook } from "standardwebhooks";
import { WorkItemSchema } from "../../../contract/index.js";
import {
  type AcceptedAnswer,
  type IntakeErrorAnswer,
  MAX_INTAKE_ITEMS,
} from "../../../contract/intake/index.js";
import { type IntakeHttpRequest, IntakeIdempotency, routeIntakeRequest } from "../../../core/intake/index.js";
import { MemoryIdempotencyStore } from "../../support/MemoryIdempotencyStore.js";

const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
const QUEUES = { interactive: "q-interactive", bulk: "q-bulk" };
const CONTEXT = { getRemainingTimeInMillis: () => 30_000 } as Context;

/** A front door on a fake SQS (every entry accepted, each body recorded) and an in-memory store. */
function frontDoor(secret: string | null = SECRET) {
  const sent: { queueUrl: string; body: string }[] = [];
  const sqs = {
    send: async (command: SendMessageBatchCommand) => {
      const entries = command.input.Entries ?? [];
      for (const entry of entries)
        sent.push({ queueUrl: command.input.QueueUrl ?? "", body: entry.MessageBody ?? "" });
      return {
        Successful: entries.map((entry) => ({ Id: entry.Id, MessageId: `msg-${sent.length}-${entry.Id}` })),
        Failed: [],
      };
    },
  };
  const deps = {
    sqs: sqs as never,
    queueUrls: QUEUES,
    policyNames: ["ticket-routing", "batch-triage"],
    laneOfPolicy: (name: string) => (name === "batch-triage" ? ("bulk" as const) : undefined),
    webhookSecret: secret ?? undefined,
    idempotency: new IntakeIdempotency({ persistenceStore: new MemoryIdempotencyStore() }),
  };
  return {
    deps,
    sent,
    post: (request: Partial<IntakeHttpRequest>) => routeIntakeRequest(deps, webhookPost(request)),
  };
}

function item(id: string, extra: Record<string, unknown> = {}) {
  return { id, policy: "ticket-routing", state: "Customer cannot log in", ...extra };
}

/** A signed webhook request (`at` seconds since 1970, default now). */
function signed(
  body: string,
  options: { id?: string; at?: number; secret?: string; headers?: Record<string, string> } = {},
) {
  const at = options.at ?? Math.floor(Date.now() / 1000);
  const id = options.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const signature = new Webhook(options.secret ?? SECRET).sign(id, new Date(at * 1000), body);
  return {
    body,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(at),
      "webhook-signature": signature,
      ...options.headers,
    },
  };
}

function webhookPost(request: Partial<IntakeHttpRequest>): IntakeHttpRequest {
  return {
    method: "POST",
    path: "/v1/webhooks/work-items",
    headers: {},
    body: undefined,
    iamCaller: undefined,
    context: CONTEXT,
    ...request,
  };
}

describe("routeIntakeRequest", () => {
  it("accepts one signed item with 202: its id, lane, message id and outcome location; the body sent as written", async () => {
    const door = frontDoor();
    const body = '{"id": "T-1", "policy": "ticket-routing", "state": {"b": 2.0, "1": "x"}}';

    const answer = await door.post(signed(body));

    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const accepted = answer.body as AcceptedAnswer;
    assert.equal(accepted.accepted.length, 1);
    assert.deepEqual(
      { ...accepted.accepted[0], message_id: undefined },
      {
        index: 0,
        id: "T-1",
        policy: "ticket-routing",
        lane: "interactive",
        message_id: undefined,
        outcome: {
          policy: "ticket-routing",
          id: "T-1",
          review_api_path: "/api/items/ticket-routing/T-1",
          show: "decisions outcomes show T-1 --policy ticket-routing",
        },
      },
    );
    assert.deepEqual(
      door.sent,
      [{ queueUrl: "q-interactive", body }],
      "the state's 2.0 and key order reach the queue",
    );
  });

  it("sends a batch's items to their policies' lanes, each item's text cut from the body unchanged", async () => {
    const door = frontDoor();
    const items = [item("A"), { id: "B", policy: "batch-triage", state: ["x", 1.5] }, item("C")];
    const body = `{"items": [${items.map((value) => JSON.stringify(value)).join(",  ")}]}`.replace(
      "1.5",
      "1.50",
    );

    const answer = await door.post(signed(body));

    assert.equal(answer.status, 202);
    assert.deepEqual(
      (answer.body as AcceptedAnswer).accepted.map((entry) => [entry.index, entry.id, entry.lane]),
      [
        [0, "A", "interactive"],
        [1, "B", "bulk"],
        [2, "C", "interactive"],
      ],
    );
    assert.deepEqual(
      door.sent.find((entry) => entry.queueUrl === "q-bulk")?.body,
      '{"id":"B","policy":"batch-triage","state":["x",1.50]}',
    );
  });

  it("refuses a batch with invalid items with 400 naming each item's index, field and rule, and sends nothing", async () => {
    const door = frontDoor();
    const body = JSON.stringify({
      items: [
        item("ok"),
        { id: "bad-1", policy: "ticket-routing" },
        item("bad-2", { fact: { tier: "gold" } }),
        item("ok"),
      ],
    });

    const answer = await door.post(signed(body));

    assert.equal(answer.status, 400);
    const refusal = answer.body as IntakeErrorAnswer;
    assert.equal(refusal.reason, "invalid_items");
    assert.match(refusal.error, /3 of 4 item\(s\) are invalid; nothing was sent/);
    const problems = (refusal.problems ?? []).map((problem) => [problem.index, problem.field]);
    assert.deepEqual(problems, [
      [1, "state"],
      [2, "(item)"],
      [3, "id"],
    ]);
    assert.match(refusal.problems?.[1]?.rule ?? "", /fact/, "the unknown key is named");
    assert.match(refusal.problems?.[2]?.rule ?? "", /repeats item 0's id/);
    assert.equal(door.sent.length, 0);
  });

  it("names the rule the work item's schema states (the same schema the decide function applies)", async () => {
    const door = frontDoor();
    const value = item("T\u001b[2J");

    const answer = await door.post(signed(JSON.stringify(value)));

    const expected = WorkItemSchema.safeParse(value).error?.issues[0]?.message;
    assert.equal(answer.status, 400);
    assert.equal((answer.body as IntakeErrorAnswer).problems?.[0]?.rule, expected);
    assert.match(expected ?? "", /control characters/);
  });

  it("refuses a body that is not JSON, or not an item or {items: [...]}, with 400", async () => {
    const door = frontDoor();
    for (const body of ["{nope", "[1, 2]", '{"items": []}', '{"items": [], "more": 1}']) {
      const answer = await door.post(signed(body));
      assert.equal(answer.status, 400, body);
      assert.equal((answer.body as IntakeErrorAnswer).problems?.[0]?.field, "(body)");
    }
  });

  it(`refuses more than ${MAX_INTAKE_ITEMS} items, and a body over 1 MiB, with 413`, async () => {
    const door = frontDoor();
    const many = JSON.stringify({
      items: Array.from({ length: MAX_INTAKE_ITEMS + 1 }, (_, index) => item(`I-${index}`)),
    });
    const huge = JSON.stringify(item("big", { state: "x".repeat(1024 * 1024) }));

    const tooMany = await door.post(signed(many));
    const tooBig = await door.post(signed(huge));

    assert.equal(tooMany.status, 413);
    assert.match((tooMany.body as IntakeErrorAnswer).error, /101 items; at most 100/);
    assert.equal(tooBig.status, 413);
    assert.match((tooBig.body as IntakeErrorAnswer).error, /at most 1048576 bytes/);
    assert.equal(door.sent.length, 0);
    const exactly = JSON.stringify({
      items: Array.from({ length: MAX_INTAKE_ITEMS }, (_, index) => item(`I-${index}`)),
    });
    assert.equal((await door.post(signed(exactly))).status, 202, "the bound itself is taken");
  });

  it("refuses an unknown policy with 404 naming the known ones, and sends nothing", async () => {
    const door = frontDoor();

    const answer = await door.post(
      signed(JSON.stringify({ items: [item("A"), item("B", { policy: "nope" })] })),
    );

    assert.equal(answer.status, 404);
    const refusal = answer.body as IntakeErrorAnswer;
    assert.deepEqual(refusal.known_policies, ["ticket-routing", "batch-triage"]);
    assert.match(refusal.error, /unknown policy "nope" \(item 1\)/);
    assert.equal(door.sent.length, 0);
  });

  it("refuses a bad signature, a stale or future timestamp and missing headers with 401, saying which", async () => {
    const door = frontDoor();
    const body = JSON.stringify(item("S-1"));
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      [
        signed(body, { secret: `whsec_${Buffer.alloc(32, 9).toString("base64")}` }),
        "bad_signature",
        /does not match/,
      ],
      [{ ...signed(body), body: body.replace("S-1", "S-2") }, "bad_signature", /does not match/],
      [signed(body, { at: now - 400 }), "stale_timestamp", /is 40\d s old; at most 300 s/],
      [signed(body, { at: now + 400 }), "future_timestamp", /ahead of this server's clock/],
      [{ body, headers: {} }, "missing_headers", /webhook-id, webhook-timestamp and webhook-signature/],
    ] as const;

    for (const [request, reason, message] of cases) {
      const answer = await door.post(request);
      assert.equal(answer.status, 401, reason);
      assert.equal((answer.body as IntakeErrorAnswer).reason, reason);
      assert.match((answer.body as IntakeErrorAnswer).error, message);
    }
    assert.equal(door.sent.length, 0);
  });

  it("refuses webhook requests with 401 when no secret is configured, saying how to start with one", async () => {
    const door = frontDoor(null);

    const answer = await door.post(signed(JSON.stringify(item("N-1"))));

    assert.equal(answer.status, 401);
    assert.match((answer.body as IntakeErrorAnswer).error, /--webhook-secret/);
  });

  it("answers a replay with the same webhook-id with the first answer, marked replayed, and sends nothing again", async () => {
    const door = frontDoor();
    const body = JSON.stringify(item("R-1"));
    const first = await door.post(signed(body, { id: "msg_replayed" }));

    const again = await door.post(signed(body, { id: "msg_replayed" }));

    assert.equal(first.status, 202);
    assert.equal(again.status, 202);
    assert.deepEqual(again.body, first.body, "the first answer, message id and time included");
    assert.deepEqual(again.headers, { "idempotent-replayed": "true" });
    assert.deepEqual(first.headers, {});
    assert.equal(door.sent.length, 1);
  });

  it("keys retries by Idempotency-Key over webhook-id, and refuses other items under a used key with 422", async () => {
    const door = frontDoor();
    const key = { "idempotency-key": "order-42" };
    const first = await door.post(signed(JSON.stringify(item("K-1")), { headers: key }));

    const retry = await door.post(signed(JSON.stringify(item("K-1")), { headers: key }));
    const other = await door.post(signed(JSON.stringify(item("K-2")), { headers: key }));

    assert.equal((first.body as AcceptedAnswer).idempotency_key, "order-42");
    assert.deepEqual(retry.body, first.body);
    assert.equal(other.status, 422);
    assert.equal((other.body as IntakeErrorAnswer).reason, "key_reused");
    assert.equal(door.sent.length, 1);
  });

  it("without a key or webhook-id (SigV4 route), keys by the items' ids and scopes keys by caller", async () => {
    const door = frontDoor();
    const body = JSON.stringify(item("I-1"));
    const post = (caller: string | undefined) =>
      routeIntakeRequest(door.deps, { ...webhookPost({ body }), path: "/v1/work-items", iamCaller: caller });

    const unsigned = await post(undefined);
    const first = await post("arn:aws:iam::111122223333:role/helpdesk");
    const retry = await post("arn:aws:iam::111122223333:role/helpdesk");
    const otherCaller = await post("arn:aws:iam::111122223333:role/monitoring");

    assert.equal(unsigned.status, 401, "no SigV4 caller named (locally): refused");
    assert.equal((unsigned.body as IntakeErrorAnswer).reason, "no_sigv4_caller");
    assert.equal(first.status, 202);
    assert.match((first.body as AcceptedAnswer).idempotency_key, /^items:[0-9a-f]{64}$/);
    assert.deepEqual(retry.body, first.body);
    assert.equal(retry.headers["idempotent-replayed"], "true");
    assert.equal(otherCaller.headers["idempotent-replayed"], undefined, "another caller's key space");
    assert.equal(door.sent.length, 2);
  });

  it("answers 503 when the queue refuses, keeps nothing, and accepts the same request when it is sent again", async () => {
    const door = frontDoor();
    let refuse = true;
    const sqs = door.deps.sqs as unknown as { send: (command: SendMessageBatchCommand) => Promise<unknown> };
    const accept = sqs.send;
    sqs.send = async (command) => {
      if (!refuse) return accept(command);
      const entries = command.input.Entries ?? [];
      return {
        Failed: entries.map((entry) => ({
          Id: entry.Id,
          Code: "KmsThrottled",
          SenderFault: true,
          Message: "later",
        })),
      };
    };
    const request = signed(JSON.stringify(item("Q-1")), { id: "msg_retry" });

    const first = await door.post(request);
    refuse = false;
    const retry = await door.post(request);

    assert.equal(first.status, 503);
    assert.equal((first.body as IntakeErrorAnswer).retryable, true);
    assert.equal(first.headers["retry-after"], "5");
    assert.equal(retry.status, 202, "the failed run kept no answer and no in-progress mark");
    assert.equal(retry.headers["idempotent-replayed"], undefined);
  });

  it("serves the work item's JSON Schema to anyone, and 404 for other routes", async () => {
    const door = frontDoor();

    const schema = await routeIntakeRequest(
      door.deps,
      webhookPost({ method: "GET", path: "/v1/schemas/work-item.json" }),
    );
    const none = await routeIntakeRequest(door.deps, webhookPost({ path: "/v1/elsewhere" }));

    assert.equal(schema.status, 200);
    assert.deepEqual((schema.body as { required: string[] }).required, ["id", "policy", "state"]);
    assert.equal(none.status, 404);
  });
});
