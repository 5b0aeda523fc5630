/**
 * checkFacts: declared types, enums, required and default facts; undeclared facts rejected.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { checkFacts } from "../../../core/policy/index.js";
import { testPolicy } from "./fabricate.js";

const policy = testPolicy(`facts:
  tier: {type: string, enum: [free, pro, enterprise]}
  account: {type: string, required: true}
  hold: {type: boolean, default: false}
  amount: number
  tags: {type: string-list}
`);

describe("checkFacts", () => {
  it("accepts matching facts and applies defaults", () => {
    const check = checkFacts(policy, { account: "acct-1", tier: "pro", amount: 12.5, tags: ["a", "b"] });

    assert.deepEqual(check, {
      ok: true,
      facts: { account: "acct-1", tier: "pro", hold: false, amount: 12.5, tags: ["a", "b"] },
    });
  });

  it("rejects a wrong type with the path inside the facts", () => {
    const check = checkFacts(policy, { account: "acct-1", tags: ["a", 3] });

    assert.equal(check.ok, false);
    assert.deepEqual(check.ok ? undefined : check.path, ["tags", 1]);
    assert.match(check.ok ? "" : check.reason, /^tags\[1\]: /);
  });

  it("rejects a value outside the enum", () => {
    const check = checkFacts(policy, { account: "acct-1", tier: "gold" });

    assert.deepEqual(check.ok ? undefined : check.path, ["tier"]);
  });

  it("rejects a missing required fact, and absent facts when one is required", () => {
    const missing = checkFacts(policy, { tier: "pro" });
    const absent = checkFacts(policy, undefined);

    assert.deepEqual(missing.ok ? undefined : [missing.path, missing.reason], [
      ["account"],
      "account: is required",
    ]);
    assert.equal(absent.ok, false);
  });

  it("rejects undeclared facts (a typo must not disable a rule), naming the declared ones", () => {
    const check = checkFacts(policy, { account: "acct-1", hodl: true });

    assert.deepEqual(check.ok ? undefined : check.path, ["hodl"]);
    assert.match(
      check.ok ? "" : check.reason,
      /"hodl" is not a fact this policy declares \(tier, account, hold, amount, tags\)/,
    );
  });

  it("rejects facts that are not an object", () => {
    for (const facts of [null, [], "tier=pro", 3]) {
      assert.equal(checkFacts(policy, facts).ok, false, JSON.stringify(facts));
    }
  });

  it("treats absent facts as none for a policy without required facts", () => {
    assert.deepEqual(checkFacts(testPolicy(), undefined), { ok: true, facts: {} });
  });

  it("never throws, whatever the facts", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (facts) => {
        const check = checkFacts(policy, facts);
        return check.ok || (check.reason.length > 0 && Array.isArray(check.path));
      }),
    );
  });
});
