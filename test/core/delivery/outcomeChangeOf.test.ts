/**
 * Which stream records of the outcomes table become deliveries (a new outcome, a status change, a
 * replacement, an amended review; not a partial review, a failure or shadow record, a removal), and
 * the payload they carry: stable keys, the webhook-id of that one status change.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { marshall } from "@aws-sdk/util-dynamodb";
import { DeliveryPayloadSchema } from "../../../contract/delivery/DeliveryPayloadSchema.js";
import {
  deliveriesOf,
  deliveryPayloadOf,
  outcomeChangeOf,
  type ResolvedTarget,
} from "../../../core/delivery/index.js";

const DECIDED = {
  policy: "ticket-routing",
  id: "T 1/é",
  policy_status: "ticket-routing#fallback",
  status: "fallback",
  answers: {
    queue: {
      answer: "triage",
      probability: 0.41,
      distribution: { triage: 0.41, billing: 0.59 },
      threshold: 0.55,
      source: "fallback",
      model_answer: "billing",
    },
  },
  rules_fired: [{ name: "pii_to_human_review", effect: "review" }],
  policy_version: "3",
  model: "demo",
  source: { kind: "sqs" },
  created_at: "2026-12-07T10:00:00.000Z",
  updated_at: "2026-12-07T10:00:00.000Z",
};

const REVIEWED = {
  ...DECIDED,
  policy_status: "ticket-routing#reviewed",
  status: "reviewed",
  answers: { queue: { ...DECIDED.answers.queue, answer: "billing", source: "human" } },
  updated_at: "2026-12-07T11:00:00.000Z",
  review: {
    by: "ana",
    at: "2026-12-07T11:00:00.000Z",
    previous_status: "fallback",
    previous_updated_at: DECIDED.updated_at,
    answers: { queue: "billing" },
    previous_answers: { queue: { answer: "triage", source: "fallback" } },
  },
};

const image = (item: object) => marshall(item, { removeUndefinedValues: true });
const insert = (item: object) => ({ eventName: "INSERT", dynamodb: { NewImage: image(item) } });
const modify = (before: object, after: object) => ({
  eventName: "MODIFY",
  dynamodb: { OldImage: image(before), NewImage: image(after) },
});

describe("outcomeChangeOf", () => {
  it("takes a new outcome as a change from nothing", () => {
    const change = outcomeChangeOf(insert(DECIDED));
    assert.equal(change?.outcome.status, "fallback");
    assert.equal(change?.previousStatus, null);
  });

  it("takes a status change, with the status before it", () => {
    const change = outcomeChangeOf(modify(DECIDED, REVIEWED));
    assert.equal(change?.outcome.status, "reviewed");
    assert.equal(change?.previousStatus, "fallback");
  });

  it("takes an amended review (reviewed again) and a replaced outcome (a redecide) though the status stays", () => {
    const amended = {
      ...REVIEWED,
      updated_at: "2026-12-07T12:00:00.000Z",
      review: { ...REVIEWED.review, at: "2026-12-07T12:00:00.000Z" },
    };
    assert.equal(outcomeChangeOf(modify(REVIEWED, amended))?.previousStatus, "reviewed");
    const redecided = {
      ...DECIDED,
      created_at: "2026-12-08T09:00:00.000Z",
      updated_at: "2026-12-08T09:00:00.000Z",
    };
    assert.equal(outcomeChangeOf(modify(DECIDED, redecided))?.previousStatus, "fallback");
  });

  it("leaves out a change that keeps the status, removals, and records that are no outcome", () => {
    const partial = { ...DECIDED, updated_at: "2026-12-07T10:30:00.000Z" };
    assert.equal(outcomeChangeOf(modify(DECIDED, partial)), undefined);
    assert.equal(outcomeChangeOf({ eventName: "REMOVE", dynamodb: { OldImage: image(DECIDED) } }), undefined);
    assert.equal(outcomeChangeOf(insert({ ...DECIDED, record_kind: "failure" })), undefined);
    assert.equal(outcomeChangeOf(insert({ policy: "p", id: "x", something: "else" })), undefined);
  });
});

describe("deliveryPayloadOf", () => {
  it("carries the status change with a webhook-id of policy, encoded id, status and time, keys in a fixed order", () => {
    const change = outcomeChangeOf(modify(DECIDED, REVIEWED));
    assert.ok(change !== undefined);
    const payload = deliveryPayloadOf(change);

    assert.equal(payload.delivery_id, "ticket-routing:T%201%2F%C3%A9:reviewed:2026-12-07T11:00:00.000Z");
    assert.deepEqual(Object.keys(payload), [
      "type",
      "delivery_id",
      "policy",
      "policy_version",
      "id",
      "status",
      "previous_status",
      "changed_at",
      "created_at",
      "answers",
      "rules_fired",
      "reviewed_by",
      "model",
    ]);
    assert.deepEqual(payload.answers, {
      queue: { answer: "billing", probability: 0.41, source: "human", threshold: 0.55 },
    });
    assert.equal(payload.reviewed_by, "ana");
    assert.deepEqual(payload.rules_fired, ["pii_to_human_review"]);
    DeliveryPayloadSchema.parse(payload);
  });

  it("gives the decision and its review different webhook-ids", () => {
    const decision = outcomeChangeOf(insert(DECIDED));
    const review = outcomeChangeOf(modify(DECIDED, REVIEWED));
    assert.ok(decision !== undefined && review !== undefined);
    assert.notEqual(deliveryPayloadOf(decision).delivery_id, deliveryPayloadOf(review).delivery_id);
  });
});

describe("deliveriesOf", () => {
  const target = (name: string, on: string[], policy = "ticket-routing"): ResolvedTarget => ({
    key: `${policy}/${name}`,
    policy,
    target: { name, url: "http://127.0.0.1:1/h", secret: "whsec_x", on: on as never },
    secret: "whsec_x",
  });

  it("makes one delivery per target of the outcome's policy whose on lists the new status, the same bytes each", () => {
    const change = outcomeChangeOf(modify(DECIDED, REVIEWED));
    assert.ok(change !== undefined);
    const deliveries = deliveriesOf(change, [
      target("a", ["reviewed"]),
      target("b", ["decided"]),
      target("c", ["reviewed", "fallback"]),
      target("d", ["reviewed"], "other-policy"),
    ]);
    assert.deepEqual(
      deliveries.map((delivery) => delivery.target.key),
      ["ticket-routing/a", "ticket-routing/c"],
    );
    assert.equal(deliveries[0]?.body, JSON.stringify(deliveries[0]?.payload));
    assert.equal(deliveries[0]?.body, deliveries[1]?.body);
  });
});
