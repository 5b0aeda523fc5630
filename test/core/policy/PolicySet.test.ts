/**
 * PolicySet.mapEvent: EventBridge events matched on source and detail-type, CEL for id, state and
 * facts; a matching event that cannot be mapped is an EventMappingError.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EventMappingError, PolicySet } from "../../../core/policy/index.js";
import { testPolicy } from "./fabricate.js";

const policy = testPolicy(`facts:
  customer: string
events:
  - source: acme.helpdesk
    detail-type: Ticket Created
    id: event.detail.ticket
    state: '{"subject": event.detail.subject, "priority": 2, "ratio": 0.5, "at": timestamp(event.time)}'
    facts: '{"customer": event.detail.customer}'
  - source: acme.helpdesk
    detail-type: Ticket Imported
    id: event.id
    state: event.detail
`);
const set = new PolicySet([policy]);

function event(detailType: string, detail: unknown, extra: Record<string, unknown> = {}) {
  return {
    version: "0",
    id: "evt-1",
    source: "acme.helpdesk",
    "detail-type": detailType,
    time: "2026-12-01T10:00:00Z",
    detail,
    ...extra,
  };
}

describe("PolicySet.mapEvent", () => {
  it("maps a matching event with the mapping's id, state and facts; CEL ints and timestamps become JSON", () => {
    const mapped = set.mapEvent(
      event("Ticket Created", { ticket: "T-9", subject: "Refund", customer: "c-1" }),
    );

    assert.equal(mapped?.policy, policy);
    assert.deepEqual(mapped?.item, {
      id: "T-9",
      policy: "test-policy",
      state: { subject: "Refund", priority: 2, ratio: 0.5, at: "2026-12-01T10:00:00.000Z" },
      facts: { customer: "c-1" },
      submitted_at: "2026-12-01T10:00:00Z",
    });
  });

  it("matches on detail-type too, and leaves facts out when the mapping has none", () => {
    const mapped = set.mapEvent(event("Ticket Imported", { any: [1, "two", { three: null }] }));

    assert.deepEqual(mapped?.item, {
      id: "evt-1",
      policy: "test-policy",
      state: { any: [1, "two", { three: null }] },
      submitted_at: "2026-12-01T10:00:00Z",
    });
  });

  it("returns undefined for events no policy maps and for values that are not events", () => {
    for (const value of [
      event("Ticket Deleted", {}),
      { ...event("Ticket Created", {}), source: "acme.other" },
      { id: "T-1", policy: "test-policy", state: {} },
      null,
      "text",
      [event("Ticket Created", {})],
    ]) {
      assert.equal(set.mapEvent(value), undefined, JSON.stringify(value));
    }
  });

  it("throws EventMappingError naming the field when a matching event lacks what the mapping reads", () => {
    assert.throws(
      () => set.mapEvent(event("Ticket Created", { subject: "Refund" })),
      (error: unknown) =>
        error instanceof EventMappingError && error.field === "id" && error.policy === "test-policy",
    );
    assert.throws(
      () => set.mapEvent(event("Ticket Created", { ticket: 42, subject: "x", customer: "c" })),
      (error: unknown) =>
        error instanceof EventMappingError &&
        error.field === "id" &&
        /not a non-empty string/.test(error.reason),
    );
    assert.throws(
      () => set.mapEvent(event("Ticket Created", { ticket: "T-1", subject: "x" })),
      (error: unknown) => error instanceof EventMappingError && error.field === "facts",
    );
  });
});
