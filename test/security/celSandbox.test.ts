/**
 * CEL rules reach only the declared variables, do no I/O and stay cheap (issue 11, "Security"):
 * refused at load, with the field, when they try more; what is allowed evaluates in bounded time.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Environment } from "@marcbachmann/cel-js";
import { findCostlyCel } from "../../core/policy/findCostlyCel.js";
import { applyPolicy, checkFacts, PolicyLoadError, parsePolicy } from "../../core/policy/index.js";
import { CEL_INJECTIONS } from "../../lab/reliability/index.js";

function policyWith(
  when: string,
  facts = "  tier: string\n  tags:\n    type: string-list\n    default: []\n",
): string {
  return `name: cel-test
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
${facts}rules:
  - name: r
    when: ${JSON.stringify(when)}
    review: why
`;
}

function problemsOf(text: string): { path: string; message: string }[] {
  try {
    parsePolicy(text, "cel-test.yaml");
    return [];
  } catch (error) {
    assert.ok(error instanceof PolicyLoadError, String(error));
    return error.problems.map((problem) => ({ path: problem.path.join("."), message: problem.message }));
  }
}

describe("CEL rules in policies", () => {
  it("refuses every host object, I/O or undeclared name at load, naming the rule's field", () => {
    const attempts = [
      "process.env.AWS_SECRET_ACCESS_KEY != ''",
      'require("fs") == null',
      "globalThis.fetch('http://169.254.169.254') == null",
      "this.constructor == null",
      "event.detail == null",
      "env == null",
      "facts.undeclared == 'x'",
      "answers.undeclared == 'x'",
    ];
    for (const when of attempts) {
      const problems = problemsOf(policyWith(when));
      assert.ok(
        problems.some((problem) => problem.path === "rules.0.when"),
        `${when}: ${JSON.stringify(problems)}`,
      );
    }
  });

  it("refuses a rule that does not type-check, or does not give a bool", () => {
    for (const when of ["answers.route == 1", "facts.tier + 1 == 2", "answers.route"]) {
      const problems = problemsOf(policyWith(when));
      assert.ok(
        problems.some((problem) => problem.path === "rules.0.when"),
        `${when}: ${JSON.stringify(problems)}`,
      );
    }
  });

  it("refuses nested comprehensions and matches(): cel-js bounds a rule's size, not its evaluation", () => {
    const nested = problemsOf(policyWith("facts.tags.exists(a, facts.tags.exists(b, a == b))"));
    assert.match(nested[0]?.message ?? "", /inside another comprehension/);
    const regex = problemsOf(policyWith("has(facts.tier) && facts.tier.matches('^(a+)+$')"));
    assert.match(regex[0]?.message ?? "", /matches\(\) is not allowed/);
  });

  it("refuses nested binds that concatenate a list eight ways, and `in` on a list inside a comprehension", () => {
    let nested = "size(x5) > 0";
    for (let level = 5; level >= 1; level -= 1) {
      const previous = level === 1 ? "facts.tags" : `x${level - 1}`;
      nested = `cel.bind(x${level}, ${Array(8).fill(previous).join(" + ")}, ${nested})`;
    }

    const binds = problemsOf(policyWith(nested));
    const quadratic = problemsOf(policyWith("facts.tags.all(t, t in facts.tags)"));
    const linear = problemsOf(policyWith("facts.tags.exists(t, t.startsWith('vip')) && 'a' in facts.tags"));

    assert.equal(binds.length, 1, JSON.stringify(binds));
    assert.match(binds[0]?.message ?? "", /times as large as its input \(at most 16\)/);
    assert.equal(binds[0]?.path, "rules.0.when");
    assert.match(quadratic[0]?.message ?? "", /costs the product of its lists' lengths/);
    assert.deepEqual(linear, [], "linear rules still load");
  });

  it("refuses a function whose cost the check cannot bound", () => {
    const problems = problemsOf(
      policyWith("facts.tags.join(',').split(',').size() > 0 && facts.tags.size() > 0"),
    );
    assert.deepEqual(problems, []);
    const environment = new Environment().registerFunction("slow(string): string", (text: string) => text);
    const unknown = findCostlyCel(environment.parse('slow("a") == "b"').ast);
    assert.match(
      unknown[0]?.message ?? "",
      /slow\(\) is not a function whose cost the policy check can bound/,
    );
  });

  it("refuses deep nesting and long literal lists by cel-js's structural limits", () => {
    assert.match(
      problemsOf(policyWith(`${"(".repeat(60)}true${")".repeat(60)}`))[0]?.message ?? "",
      /maxDepth/,
    );
    const list = `[${Array.from({ length: 300 }, (_, i) => `"t${i}"`).join(", ")}]`;
    assert.ok(problemsOf(policyWith(`"a" in ${list}`)).length > 0);
  });

  it("loads no CEL injection of the adversarial set except those reading only declared variables", () => {
    const loaded = CEL_INJECTIONS.filter((when) => problemsOf(policyWith(when)).length === 0);
    // A long chain of negations is cheap (linear) and reads nothing.
    assert.deepEqual(loaded, [
      `${"!".repeat(500)}true`,
      "dyn(facts).anything == 1",
      "answers.route == 'admin'",
    ]);
  });

  it("evaluates the largest allowed comprehension over the largest facts list, and a failing read rejects the item", () => {
    const policy = parsePolicy(policyWith("facts.tags.exists(t, t == 'vip')"), "cel-test.yaml");
    const tags = Array.from({ length: 1000 }, (_, i) => `tag-${i}`);
    const checked = checkFacts(policy, { tags });
    assert.ok(checked.ok);
    const answers = {
      route: {
        type: "choice",
        choice: "billing",
        confidence: 0.9,
        probabilities: { billing: 0.9, technical: 0.1 },
      },
    };

    const decision = applyPolicy(policy, checked.facts, answers as never);

    assert.equal(decision.status, "decided");
    const dynamic = parsePolicy(policyWith("dyn(facts).anything == 1"), "cel-test.yaml");
    const failed = applyPolicy(
      dynamic,
      (checkFacts(dynamic, {}) as { facts: Record<string, unknown> }).facts,
      answers as never,
    );
    assert.equal(failed.status, "rejected");
  });
});
