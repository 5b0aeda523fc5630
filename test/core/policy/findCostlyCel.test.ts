/**
 * The static cost check bounds every rule from its AST, constants included (issue 30, defect 8):
 * values built from literals, binds, concatenation, comprehensions over literal lists, and `join`
 * whose separator grows with the input are bounded and refused with the part and the bound named;
 * the shipped policies' expressions are still accepted.
 */
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ruleEnvironment } from "../../../core/policy/celEnvironment.js";
import { findCostlyCel, MAX_CONSTANT_COST, MAX_CONSTANT_SIZE } from "../../../core/policy/findCostlyCel.js";
import { loadPolicies, PolicyLoadError, parsePolicy } from "../../../core/policy/index.js";

const environment = () =>
  ruleEnvironment({ s: "string", t: "string-list", tags: "string-list" }, { route: "choice" });

function costly(source: string): string[] {
  return findCostlyCel(environment().parse(source).ast).map((found) => found.message);
}

/** The rule: `levels` nested binds, each concatenating the one before eight ways, from `start`. */
function nestedBinds(levels: number, start: string): string {
  let body = `size(x${levels}) > 0`;
  for (let level = levels; level >= 1; level -= 1) {
    const previous = level === 1 ? start : `x${level - 1}`;
    body = `cel.bind(x${level}, ${Array(8).fill(previous).join(" + ")}, ${body})`;
  }
  return body;
}

/** `levels` nested binds, each doubling the string before it. */
function doublingBinds(levels: number, start: string): string {
  let body = `size(x${levels}) > 0`;
  for (let level = levels; level >= 1; level -= 1) {
    const previous = level === 1 ? start : `x${level - 1}`;
    body = `cel.bind(x${level}, ${previous} + ${previous}, ${body})`;
  }
  return body;
}

const RANGE = `[${Array.from({ length: 256 }, (_, i) => i).join(", ")}]`;

function policyWith(when: string): string {
  return `name: cost
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
  s: string
  t:
    type: string-list
    default: []
rules:
  - name: costly_rule
    when: ${JSON.stringify(when)}
    review: why
`;
}

describe("findCostlyCel", () => {
  it("refuses nested binds over a literal list, at the first value over the constant bound", () => {
    const literal = "[1, 2, 3, 4, 5, 6, 7, 8]";

    const messages = costly(nestedBinds(8, literal));

    assert.equal(messages.length, 1, JSON.stringify(messages));
    // Level 4 holds 9 × 8^4 = 36,864; the first `x4 + x4` of level 5 is 73,728.
    assert.match(messages[0] ?? "", /^`x4 \+ x4` can build a value of 73,728 elements and characters/);
    assert.match(messages[0] ?? "", /from its literals alone, whatever the input \(at most 65,536/);
    assert.deepEqual(costly(nestedBinds(12, literal)), messages, "deeper nesting: the same first part");
    assert.deepEqual(costly(nestedBinds(4, literal)), [], "four levels stay within the bound");
  });

  it("refuses join with a separator read from the input: its result is the product of the sizes", () => {
    const variants = [
      "size(facts.t.join(facts.s)) > 0",
      "facts.s.split('').join(facts.s) != ''",
      "facts.t.join(facts.t.join(',')) != ''",
      "facts.t.map(x, x.split('').join(x)).size() > 0",
      "cel.bind(sep, facts.s + '-', size(facts.t.join(sep)) > 0)",
    ];
    for (const when of variants) {
      const messages = costly(when);
      assert.equal(messages.length, 1, `${when}: ${JSON.stringify(messages)}`);
      assert.match(messages[0] ?? "", /grows with the square of its input/, when);
      assert.match(messages[0] ?? "", /join\(\) repeats its separator once per element/, when);
    }
    assert.match(costly("facts.t.join(facts.s) != ''")[0] ?? "", /^`facts\.t\.join\(facts\.s\)`/);
  });

  it("bounds join and split with literal separators by the separator's length", () => {
    assert.deepEqual(costly("facts.s.split('').join('-----') != ''"), []);
    assert.match(
      costly("facts.s.split('').join('----------') != ''")[0] ?? "",
      /can build a value 22 times as large as its input \(at most 16\)/,
    );
    assert.deepEqual(costly("facts.t.join(', ').split(', ').size() > 0"), []);
  });

  it("refuses string doubling through cel.bind, from a literal and from a fact", () => {
    const literal = `'${"x".repeat(16)}'`;

    assert.deepEqual(costly(doublingBinds(12, literal)), [], "16 × 2^12 = 65,536 characters: at the bound");
    assert.match(
      costly(doublingBinds(13, literal))[0] ?? "",
      /^`x12 \+ x12` can build a value of 131,072 elements and characters from its literals alone/,
    );
    assert.deepEqual(costly(doublingBinds(4, "facts.s")), [], "16 times the input: at the bound");
    assert.match(
      costly(doublingBinds(5, "facts.s"))[0] ?? "",
      /^`x4 \+ x4` can build a value 32 times as large as its input \(at most 16\)/,
    );
  });

  it("refuses map over a literal range that builds or costs more than the budget", () => {
    const mapped = costly(`${RANGE}.map(i, ${RANGE}).size() > 0`);
    const bound = costly(`cel.bind(r, ${RANGE}, r.map(i, r).size() > 0)`);
    const compared = costly(`${RANGE}.all(i, ${RANGE} == ${RANGE})`);
    const fromInput = costly(`${RANGE}.map(i, facts.s).size() > 0`);

    assert.match(mapped[0] ?? "", /can build a value of 66,563 elements and characters from its literals/);
    assert.match(
      mapped[0] ?? "",
      /^`\[0, 1, 2, 3, 4, 5, 6, 7, 8, …0, 251, 252, 253, 254, 255\]\)`/,
      "the part is quoted",
    );
    assert.match(bound[0] ?? "", /^`r\.map\(i, r\)` can build a value of 66,563 elements/);
    assert.match(compared[0] ?? "", /costs [\d,]+ steps on its literals alone/);
    assert.match(compared[0] ?? "", /at most 250,000, a quarter of the evaluation budget's 1,000,000 steps/);
    assert.match(fromInput[0] ?? "", /can build a value 258 times as large as its input \(at most 16\)/);
    assert.equal(MAX_CONSTANT_SIZE, 65_536);
    assert.equal(MAX_CONSTANT_COST, 250_000);
  });

  it("accepts ordinary rules and every expression of the shipped policies", async () => {
    const ordinary = [
      "facts.t.exists(x, x.startsWith('vip')) && 'a' in facts.t",
      "facts.t.join(',').split(',').size() > 0 && facts.t.size() > 0",
      `facts.s in [${Array.from({ length: 256 }, (_, i) => `"service-number-${i}"`).join(", ")}]`,
      "facts.s.lowerAscii() == 'x' || facts.s + '-' + facts.s == 'a-a'",
      "facts.t.map(x, x + '!').filter(x, x.size() > 2).size() > 0",
    ];
    for (const when of ordinary) assert.deepEqual(costly(when), [], when);

    const folder = fileURLToPath(new URL("../../../policies/", import.meta.url));
    const files = (await readdir(folder)).filter((name) => name.endsWith(".yaml"));

    const policies = await loadPolicies(folder);

    assert.deepEqual(policies.names(), files.map((name) => name.replace(/\.yaml$/, "")).sort());
  });

  it("names the rule, the field and the part when a policy is loaded", () => {
    const problems = (() => {
      try {
        parsePolicy(policyWith("size(facts.t.join(facts.s)) > 0"), "cost.yaml");
        return [];
      } catch (error) {
        assert.ok(error instanceof PolicyLoadError, String(error));
        return error.problems;
      }
    })();

    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.deepEqual(problems[0]?.path, ["rules", 0, "when"]);
    assert.match(problems[0]?.message ?? "", /^rule "costly_rule": `facts\.t\.join\(facts\.s\)` can build/);
  });
});
