/**
 * One attempt of a delivery against a receiver on 127.0.0.1: signed so standardwebhooks' own
 * verify accepts it, signed afresh each attempt, and its answer classified (2xx delivered; 5xx,
 * 408, 429 and connection errors retried, with Retry-After; other 4xx refused at once).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { attemptDelivery } from "../../../core/delivery/index.js";
import { closedPortUrl } from "../../local/closedPortUrl.js";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../support/startWebhookReceiver.js";

const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
const BODY = JSON.stringify({ type: "outcome.status_changed", id: "T-1", status: "decided" });

describe("attemptDelivery", () => {
  let receiver: WebhookReceiver;
  let url: string;
  let answer: { status: number; headers?: Record<string, string>; body?: string } = { status: 204 };
  let got: ReceivedRequest[] = [];

  before(async () => {
    receiver = await startWebhookReceiver(() => answer);
    ({ url, got } = receiver);
  });

  after(() => receiver.close());

  const attempt = (now = () => new Date()) =>
    attemptDelivery({
      url,
      secret: SECRET,
      deliveryId: "p:T-1:decided:2026-12-07T10:00:00.000Z",
      body: BODY,
      timeoutMs: 5000,
      now,
    });

  it("sends the body with headers that standardwebhooks' verify accepts, and only with the right secret", async () => {
    answer = { status: 204 };
    const result = await attempt();

    assert.deepEqual(result, { kind: "delivered", status: 204 });
    const request = got.at(-1);
    assert.ok(request !== undefined);
    assert.equal(request.body, BODY);
    assert.equal(request.headers["webhook-id"], "p:T-1:decided:2026-12-07T10:00:00.000Z");
    assert.deepEqual(new Webhook(SECRET).verify(request.body, request.headers), JSON.parse(BODY));
    const other = `whsec_${Buffer.alloc(32, 4).toString("base64")}`;
    assert.throws(() => new Webhook(other).verify(request.body, request.headers), WebhookVerificationError);
  });

  it("signs each attempt with its own timestamp, so a late retry is not refused as stale", async () => {
    answer = { status: 204 };
    await attempt(() => new Date(Date.now() - 3_600_000));
    const stale = got.at(-1);
    await attempt();
    const fresh = got.at(-1);
    assert.ok(stale !== undefined && fresh !== undefined);
    assert.notEqual(stale.headers["webhook-timestamp"], fresh.headers["webhook-timestamp"]);
    assert.throws(() => new Webhook(SECRET).verify(stale.body, stale.headers), WebhookVerificationError);
    new Webhook(SECRET).verify(fresh.body, fresh.headers);
  });

  it("retries a 5xx and keeps the start of its body", async () => {
    answer = { status: 503, body: "x".repeat(500) };
    const result = await attempt();
    assert.equal(result.kind, "retry");
    assert.ok(result.kind === "retry" && "status" in result.answer);
    assert.equal(result.answer.status, 503);
    assert.equal(result.answer.body.length, 200);
  });

  it("retries a 429 and reads its Retry-After", async () => {
    answer = { status: 429, headers: { "retry-after": "7" } };
    const result = await attempt();
    assert.equal(result.kind, "retry");
    assert.equal(result.kind === "retry" ? result.retryAfterMs : undefined, 7000);
  });

  it("refuses a 400 at once with its status and body", async () => {
    answer = { status: 400, body: "unknown field queue" };
    const result = await attempt();
    assert.deepEqual(result, { kind: "refused", answer: { status: 400, body: "unknown field queue" } });
  });

  it("does not follow a redirect: a 3xx is refused", async () => {
    answer = { status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } };
    const result = await attempt();
    assert.equal(result.kind, "refused");
  });

  it("retries a refused connection, naming the error", async () => {
    const closed = await closedPortUrl();
    const result = await attemptDelivery({
      url: `${closed}/hooks`,
      secret: SECRET,
      deliveryId: "d",
      body: BODY,
      timeoutMs: 5000,
    });
    assert.equal(result.kind, "retry");
    assert.ok(result.kind === "retry" && "error" in result.answer);
    assert.match(result.answer.error, /ECONNREFUSED/);
  });
});
