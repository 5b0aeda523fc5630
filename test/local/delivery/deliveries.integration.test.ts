/**
 * Outcome deliveries on the real local stack: DynamoDB Local (its stream), fauxqs (the work queue
 * and the delivery DLQ), the real decide handler, the adapter on the generated demo model, the
 * review API, and receivers on 127.0.0.1.
 *
 * - A receiver that answers 500 to its first 3 attempts gets every outcome once per status change
 *   (decided, and after a person's review a second delivery with another webhook-id), each
 *   signature valid by standardwebhooks' own verify.
 * - A receiver that refuses connections delays no decision: every item is decided while it is
 *   down; its deliveries sit in the delivery DLQ with the reason, and `decisions deliveries
 *   redrive` delivers them once it is back, freshly signed.
 * - A receiver that answers 410 gets one attempt per delivery: each sits in the DLQ at once with
 *   the answer's status and body; a status its `on:` does not list (the review) is not sent to it.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Webhook } from "standardwebhooks";
import { createDeliveriesCommand } from "../../../cli/commands/deliveriesCommand.js";
import type { DeliveryPayload } from "../../../contract/delivery/DeliveryPayloadSchema.js";
import { DeliveryDlq } from "../../../core/delivery/index.js";
import { OutcomesReader } from "../../../core/outcomes/index.js";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../core/review/ReviewApi.js";
import { createLocalDecideHandler } from "../../../local/stack/createLocalDecideHandler.js";
import { type LocalStack, startLocalStack } from "../../../local/stack/startLocalStack.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../support/startWebhookReceiver.js";

const POLICY = "ticket-routing";
const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const DOWN_SECRET = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
const ITEMS = 6;
const ALL_STATUSES = "[decided, fallback, overridden, rejected, reviewed]";

/** A receiver on 127.0.0.1 answering `answer(n)` to its n-th request (1-based), with a body the DLQ keeps. */
function startReceiver(answer: (n: number) => number, port = 0): Promise<WebhookReceiver> {
  return startWebhookReceiver((n) => {
    const status = answer(n);
    return { status, headers: { "content-type": "text/plain" }, body: status < 300 ? "ok" : "receiver busy" };
  }, port);
}

/** An output stream that keeps what is written. */
function collector(): { text: () => string; stream: { write: (text: string) => boolean } } {
  const chunks: string[] = [];
  return {
    text: () => chunks.join(""),
    stream: {
      write: (text: string) => {
        chunks.push(text);
        return true;
      },
    },
  };
}

/** Polls `read` until `done` holds; fails when what it reads stops changing for 60 s (no progress). */
async function waitFor<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  let last = "";
  let since = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    const seen = JSON.stringify(value);
    if (seen !== last) {
      last = seen;
      since = Date.now();
    } else if (Date.now() - since > 60_000)
      assert.fail(`${what}: no progress for 60 s (last: ${seen.slice(0, 300)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("outcome deliveries on the local stack (integration)", { timeout: 600_000 }, () => {
  let stack: LocalStack;
  let folder: string;
  let policies: PolicySet;
  let flaky: WebhookReceiver;
  let gone: WebhookReceiver;
  let downPort: number;
  let reader: OutcomesReader;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "deliveries-"));
    flaky = await startReceiver((n) => (n <= 3 ? 500 : 204));
    gone = await startReceiver(() => 410);
    // A port where nothing listens yet: the second receiver starts there later.
    const probe = await startReceiver(() => 204);
    downPort = probe.port;
    await probe.close();
    const shipped = await readFile(join("policies", `${POLICY}.yaml`), "utf8");
    const deliver = [
      "deliver:",
      "  - name: helpdesk",
      `    url: ${flaky.url}`,
      "    secret: env:HELPDESK_SECRET",
      `    on: ${ALL_STATUSES}`,
      "  - name: archive",
      `    url: http://127.0.0.1:${downPort}/hooks`,
      `    secret: ${DOWN_SECRET}`,
      `    on: ${ALL_STATUSES}`,
      "  - name: gone",
      `    url: ${gone.url}`,
      `    secret: ${DOWN_SECRET}`,
      "    on: [decided, fallback, overridden, rejected]",
      "",
    ].join("\n");
    await writeFile(join(folder, `${POLICY}.yaml`), `${shipped}\n${deliver}`);
    policies = await loadPolicies(folder);
    stack = await startLocalStack({
      env: process.env,
      adapterThreads: 2,
      createHandler: (context) => createLocalDecideHandler(context, { policyDir: folder }),
      deliveries: {
        policies,
        env: { HELPDESK_SECRET: SECRET },
        // Short for the test: 5 attempts, waits of 50–400 ms.
        schedule: { attempts: 5, baseDelayMs: 100, maxDelayMs: 400, attemptTimeoutMs: 5_000 },
      },
    });
    reader = new OutcomesReader({
      client: DynamoDBDocumentClient.from(stack.clients.dynamodb),
      tableName: stack.table,
    });
  });

  after(async () => {
    await stack?.stop();
    await flaky?.close();
    await gone?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  const delivered = () =>
    flaky.got
      .filter((request) => request.answered < 300)
      .map((request) => JSON.parse(request.body) as DeliveryPayload);

  it("decides every item while a receiver is down and delivers each status change once, signed", async () => {
    await stack.clients.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: stack.queueUrl,
        Entries: Array.from({ length: ITEMS }, (_, index) => ({
          Id: `m${index}`,
          MessageBody: JSON.stringify({
            id: `T-${index}`,
            policy: POLICY,
            state: { subject: `ticket ${index}`, body: `I was charged twice on invoice ${index}.` },
            facts: { customer_tier: "pro", pii: index === 0 },
          }),
        })),
      }),
    );
    const stored = await waitFor(
      "outcomes",
      async () =>
        (
          await Promise.all(Array.from({ length: ITEMS }, (_, index) => reader.get(POLICY, `T-${index}`)))
        ).filter((outcome) => outcome !== undefined),
      (found) => found.length === ITEMS,
    );
    // Every item is decided whatever the down receiver does: delivery runs beside the pipeline.
    assert.equal(stored.length, ITEMS);

    await waitFor("deliveries to the flaky receiver", delivered, (payloads) => payloads.length >= ITEMS);
    const first = flaky.got.slice(0, 3).map((request) => request.answered);
    assert.deepEqual(first, [500, 500, 500], "the first 3 attempts were answered 500");
    const webhook = new Webhook(SECRET);
    for (const request of flaky.got) webhook.verify(request.body, request.headers);
    const payloads = delivered();
    assert.deepEqual(
      payloads.map((payload) => payload.id).sort(),
      Array.from({ length: ITEMS }, (_, index) => `T-${index}`).sort(),
      "each outcome once",
    );
    for (const payload of payloads) {
      const outcome = stored.find((candidate) => candidate.id === payload.id);
      assert.equal(payload.status, outcome?.status);
      assert.equal(payload.previous_status, null);
      assert.equal(payload.delivery_id, `${POLICY}:${payload.id}:${payload.status}:${outcome?.updated_at}`);
    }
    const ids = flaky.got
      .filter((request) => request.answered < 300)
      .map((request) => request.headers["webhook-id"]);
    assert.equal(new Set(ids).size, ids.length, "no webhook-id delivered twice");
  });

  it("delivers a person's review as a second delivery of that outcome, with its own webhook-id", async () => {
    const api = new ReviewApi({
      client: DynamoDBDocumentClient.from(stack.clients.dynamodb),
      tableName: stack.table,
      policies,
    });
    const item = await api.item(POLICY, "T-0");
    const policy = policies.get(POLICY);
    assert.ok(policy !== undefined);
    const open =
      item.open_questions.length > 0 ? item.open_questions : policy.questions.map((question) => question.id);
    const answers = Object.fromEntries(
      open.map((question) => [question, String(policy.question(question)?.labels[0])]),
    );
    const before = delivered().length;
    await api.review(
      POLICY,
      "T-0",
      { answers, expectUpdatedAt: item.outcome.updated_at, amend: true },
      { name: "ana", source: "local" },
    );

    const payloads = await waitFor("the review's delivery", delivered, (all) => all.length > before);
    const review = payloads.at(-1);
    assert.equal(review?.id, "T-0");
    assert.equal(review?.status, "reviewed");
    assert.equal(review?.reviewed_by, "ana");
    const decision = payloads.find((payload) => payload.id === "T-0" && payload.status !== "reviewed");
    assert.equal(review?.previous_status, decision?.status);
    assert.notEqual(review?.delivery_id, decision?.delivery_id, "a review is not dropped as a repeat");
    new Webhook(SECRET).verify(flaky.got.at(-1)?.body ?? "", flaky.got.at(-1)?.headers ?? {});
  });

  it("keeps the down receiver's deliveries in the DLQ with the reason, and redrive delivers them once it is back", async () => {
    const dlq = new DeliveryDlq(stack.clients.sqs, String(stack.connectionInfo().delivery_dlq_url));
    const expected = ITEMS + 1; // each decision, and the review
    const held = await waitFor(
      "failures in the delivery DLQ",
      async () => {
        const { failures: entries } = await dlq.hold(100);
        await Promise.all(entries.map((entry) => dlq.release(entry.receiptHandle)));
        return entries.map((entry) => entry.failure);
      },
      (failures) =>
        failures.filter((failure) => failure.target.endsWith("/archive")).length >= expected &&
        failures.filter((failure) => failure.target.endsWith("/gone")).length >= ITEMS,
    );
    const refused = held.filter((failure) => failure.target === `${POLICY}/gone`);
    assert.equal(refused.length, ITEMS, "a 410 goes to the DLQ at once; the review is not in its on: list");
    for (const failure of refused) {
      assert.equal(failure.attempts, 1);
      assert.deepEqual(failure.last_answer, { status: 410, body: "receiver busy" });
      assert.match(failure.reason, /refused it with HTTP 410/);
    }
    assert.equal(gone.got.length, ITEMS, "one attempt each");
    const archived = held.filter((failure) => failure.target === `${POLICY}/archive`);
    assert.equal(archived.length, expected);
    for (const failure of archived) {
      assert.equal(failure.target, `${POLICY}/archive`);
      assert.equal(failure.attempts, 5);
      assert.match(failure.reason, /no 2xx after 5 attempts/);
      assert.ok(failure.last_answer !== undefined && "error" in failure.last_answer);
      assert.match(failure.last_answer.error, /ECONNREFUSED/);
    }

    const upInfo = join(folder, "up.json");
    await writeFile(upInfo, `${JSON.stringify(stack.connectionInfo())}\n`);
    const listed = collector();
    const list = createDeliveriesCommand({ stdout: listed.stream });
    assert.equal(await list.run(["list", "--up-info", upInfo]), 0);
    assert.match(listed.text(), new RegExp(`${expected + ITEMS} failed delivery`));
    assert.match(listed.text(), /ECONNREFUSED/);

    const back = await startReceiver(() => 200, downPort);
    try {
      const out = collector();
      const err = collector();
      const redrive = createDeliveriesCommand({ stdout: out.stream, stderr: err.stream, env: {} });
      const code = await redrive.run([
        "redrive",
        "--up-info",
        upInfo,
        "--target",
        "archive",
        "--policies",
        folder,
      ]);
      assert.equal(code, 0, err.text());
      assert.match(out.text(), new RegExp(`${expected} of ${expected} delivered`));
      assert.equal(back.got.length, expected);
      const webhook = new Webhook(DOWN_SECRET);
      for (const request of back.got) webhook.verify(request.body, request.headers);
      assert.deepEqual(
        back.got.map((request) => request.headers["webhook-id"]).sort(),
        archived.map((failure) => failure.delivery_id).sort(),
      );
      const left = (await dlq.hold(100)).failures;
      assert.deepEqual(
        left.map((entry) => entry.failure.target),
        Array(ITEMS).fill(`${POLICY}/gone`),
        "only the other target's failures are left after the redrive of archive",
      );
    } finally {
      await back.close();
    }
  });
});
