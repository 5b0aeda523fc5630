import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { buildSystemOneBody } from "../../../core/pipeline/buildSystemOneBody.js";
import { groupItems } from "../../../core/pipeline/groupItems.js";
import { parseWorkItem } from "../../../core/pipeline/parseWorkItem.js";
import type { ParsedItem } from "../../../core/pipeline/types.js";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";

let policies: PolicySet;
before(async () => {
  policies = await loadPolicies("policies");
});

const parse = (body: string, index = 0) =>
  parseWorkItem({ body, origin: { kind: "sqs", messageId: `m-${index}`, receiveCount: 2 } }, index, policies);

describe("parseWorkItem", () => {
  it("cuts the state's text out of the body as written: key order and number spelling kept", () => {
    const state = '{"b": 2.0, "2024": [1e5, -0.0], "a": "x"}';

    const parsed = parse(
      `{"id": "T-1", "policy": "ticket-routing", "state": ${state}, "facts": {"customer_tier": "pro"}}`,
    );

    assert.equal(parsed.kind, "item");
    const item = parsed as ParsedItem;
    assert.equal(item.stateText, state);
    assert.equal(item.renderedState, '{"b": 2.0, "2024": [100000.0, -0.0], "a": "x"}');
    assert.deepEqual(item.origin, { kind: "sqs", messageId: "m-0", receiveCount: 2 });
    assert.equal(item.facts.legal_hold, false, "defaults applied");
  });

  it("rejects a body that is not JSON under _unparsed, keyed by the message id", () => {
    const parsed = parse("{not json", 7);
    assert.equal(parsed.kind, "rejected");
    assert.equal(parsed.kind === "rejected" && parsed.policyName, "_unparsed");
    assert.equal(parsed.kind === "rejected" && parsed.id, "m-7");
    assert.equal(parsed.index, 7);
  });

  it("keys an unreadable line of a file by its line number", () => {
    const parsed = parseWorkItem({ body: "{not json", origin: { kind: "file", line: 12 } }, 3, policies);
    assert.deepEqual(parsed.kind === "rejected" && [parsed.policyName, parsed.id], ["_unparsed", "line-12"]);
  });

  it("rejects a duplicate key in the body (JSON.parse would silently keep the last)", () => {
    const parsed = parse('{"id": "T-1", "id": "T-2", "policy": "ticket-routing", "state": "x"}');
    assert.equal(parsed.kind, "rejected");
  });

  it("rejects an invalid work item under its policy and id when those are readable", () => {
    const parsed = parse('{"id": "T-9", "policy": "ticket-routing", "state": 42}');
    assert.deepEqual(parsed.kind === "rejected" && [parsed.policyName, parsed.id, parsed.reasonPath], [
      "ticket-routing",
      "T-9",
      ["state"],
    ]);
  });

  it("rejects an id with control characters under the message id, so it never reaches the table", () => {
    const parsed = parse('{"id": "T-1\\u001b[2K\\rdecided", "policy": "ticket-routing", "state": "x"}', 3);

    assert.equal(parsed.kind, "rejected");
    assert.deepEqual(parsed.kind === "rejected" && [parsed.policyName, parsed.id], ["_unparsed", "m-3"]);
    assert.match(parsed.kind === "rejected" ? parsed.reason : "", /id: must not contain control characters/);
  });

  it("rejects an unknown policy and facts the policy does not declare, with the path", () => {
    const unknown = parse('{"id": "T-1", "policy": "nope", "state": "x"}');
    assert.match(unknown.kind === "rejected" ? unknown.reason : "", /unknown policy "nope"/);
    const facts = parse('{"id": "T-1", "policy": "ticket-routing", "state": "x", "facts": {"tier": "pro"}}');
    assert.deepEqual(facts.kind === "rejected" && facts.reasonPath, ["facts", "tier"]);
  });

  it("maps an EventBridge incident event to an incident-priority item", () => {
    const event = readFileSync("events/eventbridge/incident-opened.json", "utf8");
    const parsed = parse(event);
    assert.equal(parsed.kind, "item");
    assert.equal((parsed as ParsedItem).policy.name, "incident-priority");
    assert.equal((parsed as ParsedItem).event?.source, "acme.monitoring");
  });

  it("rejects an event no policy maps, naming its source and detail-type", () => {
    const parsed = parse(readFileSync("events/eventbridge/unmapped-event.json", "utf8"));
    assert.match(parsed.kind === "rejected" ? parsed.reason : "", /acme\.billing.*Invoice Overdue/);
  });
});

describe("groupItems", () => {
  it("groups items of one policy whose states render alike, in order of first appearance", () => {
    const items = [
      parse('{"id": "a", "policy": "ticket-routing", "state": {"x": 1}}', 0),
      parse('{"id": "b", "policy": "ticket-routing", "state": {"x":1}}', 1),
      parse('{"id": "c", "policy": "ticket-routing", "state": {"x": 1.0}}', 2),
      parse('{"id": "d", "policy": "batch-classification", "state": {"x": 1}}', 3),
    ] as ParsedItem[];

    const groups = groupItems(items);

    assert.deepEqual(
      groups.map((group) => group.items.map((item) => item.id)),
      [["a", "b"], ["c"], ["d"]],
    );
  });
});

describe("buildSystemOneBody", () => {
  it("puts the state text in unchanged, with all of the policy's questions", () => {
    const policy = policies.get("ticket-routing");
    assert.ok(policy);
    const body = buildSystemOneBody(policy, '{"2024": 2.0, "a": 1}');
    assert.ok(body.startsWith('{"state": {"2024": 2.0, "a": 1}, "questions": '));
    assert.deepEqual(Object.keys(JSON.parse(body).questions), ["queue", "priority", "needs_human"]);
  });
});
