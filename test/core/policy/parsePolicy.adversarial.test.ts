/**
 * The policy loader under adversarial files (issue 11, "Bad input"): deep nesting, huge strings,
 * CEL injection attempts, unicode, chat-control text. A file loads or fails with a
 * PolicyLoadError naming file, line and field, nothing else. `PROPERTY_RUNS` sets the number of
 * cases (default 300).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePolicy } from "../../../core/policy/index.js";
import { checkPolicyLoading } from "../../../lab/reliability/checkPolicyLoading.js";
import { SEED_POLICY } from "../../../lab/reliability/policyTexts.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";

const RUNS = propertyRuns(process.env, 300);

describe("parsePolicy under adversarial files (property)", () => {
  it("loads the seed the cases start from", () => {
    assert.equal(parsePolicy(SEED_POLICY, "seed.yaml").name, "seed-policy");
  });

  it("loads a file or refuses it with problems naming file, line and field, and chat-control text at its field", () => {
    const report = checkPolicyLoading({ numRuns: RUNS });

    assert.equal(report.cases, RUNS);
    assert.ok(report.refused > 0, JSON.stringify(report));
  });
});
