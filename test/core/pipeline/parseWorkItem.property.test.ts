/**
 * Work-item parsing (SQS records read as the decide function reads them) under arbitrary and adversarial bodies (issue 11, "Bad input"): never a throw,
 * never a half outcome — a valid item or a clear rejection with its reason. `PROPERTY_RUNS` sets
 * the number of cases (default 400).
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { parseWorkItem } from "../../../core/pipeline/index.js";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";
import { parseRecord } from "../../../functions/decide/index.js";
import { checkRecordParsing, recordParsingProblem } from "../../../lab/reliability/checkRecordParsing.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";
import { SEED_BODIES } from "../../../lab/reliability/recordBodies.js";
import { sqsRecord } from "../../functions/support/sqsEvent.js";

const RUNS = propertyRuns(process.env, 400);

let policies: PolicySet;
before(async () => {
  policies = await loadPolicies("policies");
});

describe("parseWorkItem under adversarial bodies (property)", () => {
  it("makes every seed an item: the mutations start from valid bodies", () => {
    for (const seed of SEED_BODIES) {
      const body = JSON.stringify(seed);
      const parsed = parseWorkItem(parseRecord(sqsRecord(body)), 0, policies);
      assert.equal(parsed.kind, "item", parsed.kind === "rejected" ? parsed.reason : "");
      assert.equal(recordParsingProblem({ body, origin: "seed" }, parsed, policies), undefined);
    }
  });

  it("never throws and gives a complete item or a storable rejection with its reason", () => {
    const report = checkRecordParsing(policies, { numRuns: RUNS });

    assert.equal(report.cases, RUNS);
    assert.ok(report.items > 0 && report.rejected > 0, JSON.stringify(report));
  });

  it("rejects an id or policy name beyond DynamoDB's key limits instead of failing the write", () => {
    const longId = JSON.stringify({ id: "x".repeat(2000), policy: "ticket-routing", state: 42 });
    const wideId = JSON.stringify({ id: "語".repeat(500), policy: "ticket-routing", state: "s" });
    const longPolicy = JSON.stringify({ id: "a", policy: "p".repeat(3000), state: "s" });
    for (const body of [longId, wideId, longPolicy]) {
      const parsed = parseWorkItem(parseRecord(sqsRecord(body)), 0, policies);
      assert.equal(recordParsingProblem({ body, origin: "long key" }, parsed, policies), undefined);
    }
  });
});
