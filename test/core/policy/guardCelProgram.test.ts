import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ruleEnvironment } from "../../../core/policy/celEnvironment.js";
import {
  applyPolicy,
  CelBudgetError,
  checkFacts,
  DEFAULT_CEL_BUDGET,
  guardCelProgram,
  parsePolicy,
} from "../../../core/policy/index.js";

/** The attack of issue 19: nested binds, each concatenating the list before it eight ways. */
function nestedBinds(levels: number): string {
  let body = `size(x${levels}) > 0`;
  for (let level = levels; level >= 1; level -= 1) {
    const previous = level === 1 ? "facts.tags" : `x${level - 1}`;
    body = `cel.bind(x${level}, ${Array(8).fill(previous).join(" + ")}, ${body})`;
  }
  return body;
}

const tags = Array.from({ length: 1000 }, (_, i) => `tag-${i}`);
const environment = () => ruleEnvironment({ tier: "string", tags: "string-list" }, { route: "choice" });

describe("guardCelProgram", () => {
  it("stops the nested-bind expression at the first list over the budget, naming the limit", () => {
    const program = guardCelProgram(environment().parse(nestedBinds(5)));

    const started = performance.now();
    assert.throws(
      () => program({ facts: { tags }, answers: {}, model: {}, confidence: {}, scores: {} }),
      (error: unknown) =>
        error instanceof CelBudgetError && /a list of \d+ elements \(at most 65536\)/.test(error.message),
    );
    // Unguarded, this evaluation builds 8^5 × 1000 elements (over a gigabyte); guarded it stops at
    // the second level's 64,000 × 8. Reported, not asserted: a busy machine may be slow.
    console.log(`guarded nested binds stopped after ${(performance.now() - started).toFixed(1)} ms`);
  });

  it("refuses a join before building it when its result would be over the budget", () => {
    // 3,000 tags joined by a 200,000-character separator: 600 million characters, more than a
    // JavaScript string can hold, so a join that ran would throw a RangeError, not a budget error.
    const many = Array.from({ length: 3000 }, (_, i) => `tag-${i}`);
    const separator = "x".repeat(200_000);
    const expected = many.reduce((sum, tag) => sum + tag.length, 0) + (many.length - 1) * separator.length;
    const program = guardCelProgram(environment().parse("size(facts.tags.join(facts.tier)) > 0"));

    assert.throws(
      () =>
        program({
          facts: { tags: many, tier: separator },
          answers: {},
          model: {},
          confidence: {},
          scores: {},
        }),
      (error: unknown) =>
        error instanceof CelBudgetError &&
        error.limit === `a string of ${expected} characters (at most 1048576)` &&
        /at `facts\.tags\.join\(facts\.tier\)`$/.test(error.message),
    );
  });

  it("refuses a concatenation before building it, and lets one within the budget through", () => {
    const program = guardCelProgram(environment().parse("size(facts.tier + facts.tier) > 0"), {
      ...DEFAULT_CEL_BUDGET,
      maxStringLength: 10,
    });
    const context = (tier: string) => ({
      facts: { tier },
      answers: {},
      model: {},
      confidence: {},
      scores: {},
    });

    assert.equal(program(context("x".repeat(5))), true);
    assert.throws(() => program(context("x".repeat(6))), /a string of 12 characters \(at most 10\)/);
  });

  it("stops an expression by steps, and starts every evaluation with a full budget", () => {
    const program = guardCelProgram(environment().parse("facts.tags.all(t, t != 'x')"), {
      timeMs: 60_000,
      maxElements: 65_536,
      maxStringLength: 1_048_576,
      maxSteps: 500,
    });
    const context = (list: string[]) => ({
      facts: { tags: list },
      answers: {},
      model: {},
      confidence: {},
      scores: {},
    });

    assert.throws(() => program(context(tags)), /more than 500 steps/);
    assert.equal(program(context(tags.slice(0, 10))), true);
    assert.equal(program(context(tags.slice(0, 10))), true, "the budget is per evaluation");
  });

  it("turns a rule that builds an oversized string into a rejected outcome naming the rule", () => {
    const policy = parsePolicy(
      `name: budget
version: "1"
description: d
questions:
  route:
    type: choice
    instructions: Which team?
    criteria: [billing, technical]
    threshold: 0.5
    fallback: technical
facts:
  tier:
    type: string
    default: ""
rules:
  - name: long_tier
    when: "size(facts.tier + facts.tier + facts.tier + facts.tier) > 3"
    review: long
`,
      "budget.yaml",
    );
    const checked = checkFacts(policy, { tier: "x".repeat(300_000) });
    assert.ok(checked.ok);

    const decision = applyPolicy(policy, checked.facts, {
      route: { type: "choice", probabilities: { billing: 0.9, technical: 0.1 } },
    } as never);

    assert.equal(decision.status, "rejected");
    assert.match(
      decision.reason ?? "",
      /^rule "long_tier" failed: the expression ran past its evaluation budget: a string of \d+ characters/,
    );
  });
});
