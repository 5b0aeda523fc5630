import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { Context } from "aws-lambda";
import { IntakeIdempotency, routeIntakeRequest } from "../../../core/intake/index.js";
import { postWorkItems } from "../../../operations/intake/index.js";
import { MemoryIdempotencyStore } from "../../support/MemoryIdempotencyStore.js";

const SECRET = `whsec_${Buffer.alloc(32, 4).toString("base64")}`;

/** `fetch` onto the real router (fake SQS, in-memory idempotency); `before` may answer first. */
function frontDoorFetch(before?: (attempt: number) => Response | undefined) {
  const sent: string[] = [];
  let attempts = 0;
  const deps = {
    sqs: {
      send: async (command: SendMessageBatchCommand) => {
        const entries = command.input.Entries ?? [];
        sent.push(...entries.map((entry) => entry.MessageBody ?? ""));
        return {
          Successful: entries.map((entry) => ({ Id: entry.Id, MessageId: `m-${sent.length}-${entry.Id}` })),
        };
      },
    } as never,
    queueUrls: { interactive: "qi", bulk: "qb" },
    policyNames: ["ticket-routing"],
    laneOfPolicy: () => undefined,
    webhookSecret: SECRET,
    idempotency: new IntakeIdempotency({ persistenceStore: new MemoryIdempotencyStore() }),
  };
  const fake = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    attempts += 1;
    const early = before?.(attempts);
    if (early !== undefined) return early;
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>));
    const answer = await routeIntakeRequest(deps, {
      method: "POST",
      path: "/v1/webhooks/work-items",
      headers,
      body: String(init?.body),
      iamCaller: undefined,
      context: { getRemainingTimeInMillis: () => 30_000 } as Context,
    });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
  };
  return { fetch: fake as typeof fetch, sent, attempts: () => attempts };
}

const line = (n: number, body: Record<string, unknown>) => ({
  line: n,
  body: JSON.stringify(body),
  id: String(body.id),
});
const good = (id: string) => ({ id, policy: "ticket-routing", state: "text" });

describe("postWorkItems", () => {
  it("posts signed batches; items the front door refuses are reported and the rest sent again without them", async () => {
    const door = frontDoorFetch();
    const items = [
      line(1, good("a")),
      line(2, { id: "b", policy: "ticket-routing" }),
      line(3, good("c")),
      line(4, { ...good("d"), policy: "nope" }),
    ];

    const results = await postWorkItems(items, {
      url: "http://front.door",
      secret: SECRET,
      fetch: door.fetch,
    });

    assert.deepEqual(
      results.map((result) =>
        result.ok ? [result.line, "ok", result.lane] : [result.line, result.status, result.message],
      ),
      [
        [1, "ok", "interactive"],
        [2, 400, "state: must be a non-empty string, an array or an object"],
        [3, "ok", "interactive"],
        [4, 404, 'unknown policy "nope"; known: ticket-routing'],
      ],
    );
    assert.deepEqual(door.sent, [items[0]?.body, items[2]?.body]);
  });

  it("gets the first answer when the same file is sent again, and sends nothing twice", async () => {
    const door = frontDoorFetch();
    const items = [line(1, good("a")), line(2, good("b"))];

    const first = await postWorkItems(items, { url: "http://front.door", secret: SECRET, fetch: door.fetch });
    const again = await postWorkItems(items, { url: "http://front.door", secret: SECRET, fetch: door.fetch });

    assert.deepEqual(
      again.map((result) => result.ok && result.replayed),
      [true, true],
    );
    assert.deepEqual(
      again.map((result) => result.ok && result.messageId),
      first.map((result) => result.ok && result.messageId),
    );
    assert.equal(door.sent.length, 2);
  });

  it("retries 429 and 503 after their Retry-After, signing each attempt anew", async () => {
    const waits: number[] = [];
    const door = frontDoorFetch((attempt) =>
      attempt === 1
        ? new Response('{"error":"slow down","reason":"throttled"}', {
            status: 429,
            headers: { "retry-after": "2" },
          })
        : attempt === 2
          ? new Response('{"error":"later","reason":"queue_unavailable"}', {
              status: 503,
              headers: { "retry-after": "1" },
            })
          : undefined,
    );

    const results = await postWorkItems([line(1, good("a"))], {
      url: "http://front.door",
      secret: SECRET,
      fetch: door.fetch,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });

    assert.equal(results[0]?.ok, true);
    assert.equal(door.attempts(), 3);
    assert.ok((waits[0] ?? 0) >= 2000 && (waits[1] ?? 0) >= 1000, `waited ${waits.join(", ")} ms`);
  });
});
