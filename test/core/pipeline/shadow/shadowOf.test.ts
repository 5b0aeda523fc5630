/**
 * The shadow draw: deterministic by policy and id, a share of items within tolerance of the rate,
 * and independent of the audit draw (salted apart from it).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { sha256Hex } from "../../../../core/common/sha256Hex.js";
import { auditDraw, auditOf, shadowDraw, shadowOf } from "../../../../core/pipeline/index.js";
import { propertyRuns } from "../../../../lab/reliability/propertyRuns.js";

const ids = Array.from({ length: 20_000 }, (_, i) => `T-${i}`);

describe("the shadow draw", () => {
  it("is the first 48 bits of sha256(shadow, policy, id) over 2^48, the same on every call", () => {
    const expected = Number.parseInt(sha256Hex("shadow\ntest-policy\nT-1").slice(0, 12), 16) / 2 ** 48;
    assert.equal(shadowDraw("test-policy", "T-1"), expected);
    assert.equal(shadowDraw("test-policy", "T-1"), shadowDraw("test-policy", "T-1"));
    assert.notEqual(shadowDraw("test-policy", "T-1"), auditDraw("test-policy", "T-1"));
    assert.notEqual(shadowDraw("test-policy", "T-1"), shadowDraw("other-policy", "T-1"));
  });

  it("samples the rate's share of items, within 1 point on 20,000 ids", () => {
    for (const rate of [0.01, 0.1, 0.5]) {
      const sampled = ids.filter((id) => shadowOf({ rate }, "test-policy", id) !== undefined).length;
      assert.ok(Math.abs(sampled / ids.length - rate) < 0.01, `rate ${rate}: ${sampled} sampled`);
    }
  });

  it("samples none at rate 0 and all at rate 1, and gives the rate and draw of a sampled item", () => {
    assert.ok(ids.every((id) => shadowOf({ rate: 0 }, "test-policy", id) === undefined));
    assert.ok(ids.every((id) => shadowOf({ rate: 1 }, "test-policy", id) !== undefined));
    assert.deepEqual(shadowOf({ rate: 1 }, "test-policy", "T-1"), {
      rate: 1,
      draw: shadowDraw("test-policy", "T-1"),
    });
  });

  it("is independent of the audit draw: half of the audited half is shadowed, the draws uncorrelated", () => {
    const audited = ids.filter((id) => auditOf({ name: "test-policy", auditRate: 0.5 }, id) !== undefined);
    const both = audited.filter((id) => shadowOf({ rate: 0.5 }, "test-policy", id) !== undefined);
    assert.ok(Math.abs(both.length / audited.length - 0.5) < 0.02, `${both.length} of ${audited.length}`);
    const pairs = ids.map((id) => [auditDraw("test-policy", id), shadowDraw("test-policy", id)] as const);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const ma = mean(pairs.map(([a]) => a));
    const ms = mean(pairs.map(([, s]) => s));
    const cov = mean(pairs.map(([a, s]) => (a - ma) * (s - ms)));
    const r =
      cov / Math.sqrt(mean(pairs.map(([a]) => (a - ma) ** 2)) * mean(pairs.map(([, s]) => (s - ms) ** 2)));
    assert.ok(Math.abs(r) < 0.03, `correlation ${r}`);
  });

  it("is a number in [0, 1) for any policy and id", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (policy, id) => {
        const draw = shadowDraw(policy, id);
        return draw >= 0 && draw < 1;
      }),
      { numRuns: propertyRuns(process.env, 200) },
    );
  });
});
