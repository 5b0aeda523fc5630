import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DecisionUsageSchema, decisionUsageOf } from "../../../contract/index.js";

const request = { endpoint: "decisions", group_size: 2, attempts: 1 };

describe("decisionUsageOf", () => {
  it("reads the request's tokens, group size, endpoint time and lane from an outcome", () => {
    const usage = decisionUsageOf({
      request: { ...request, input_tokens: 180, evaluated_tokens: 60, cached_tokens: 150 },
      timings: { endpoint_ms: 42.5, batch_ms: 80 },
      lane: "bulk",
    });

    assert.deepEqual(usage, {
      group_size: 2,
      input_tokens: 180,
      evaluated_tokens: 60,
      cached_tokens: 150,
      endpoint_ms: 42.5,
      lane: "bulk",
    });
    assert.ok(DecisionUsageSchema.safeParse(usage).success);
  });

  it("keeps only what the outcome says: no evaluated or cached counts, no lane", () => {
    assert.deepEqual(decisionUsageOf({ request: { ...request, input_tokens: 9 } }), {
      group_size: 2,
      input_tokens: 9,
    });
  });

  it("has none for an outcome without a model request or from before outcomes recorded tokens", () => {
    assert.equal(decisionUsageOf({}), undefined);
    assert.equal(decisionUsageOf({ request, timings: { endpoint_ms: 10 } }), undefined);
  });
});
