/**
 * The loader reports every problem of a policy file with file, line, column and field path, and
 * throws nothing but PolicyLoadError, whatever the text.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { PolicyLoadError, type PolicyProblem, parsePolicy } from "../../../core/policy/index.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";
import { policyText } from "./fabricate.js";

/** The problems `parsePolicy` throws for `text` (fails the test when it does not throw). */
function problemsOf(text: string, file = "test-policy.yaml"): PolicyProblem[] {
  try {
    parsePolicy(text, file);
  } catch (error) {
    assert.ok(error instanceof PolicyLoadError, `expected PolicyLoadError, got ${String(error)}`);
    return [...error.problems];
  }
  assert.fail("parsePolicy accepted the text");
}

/** The 1-based line and column of the first occurrence of `needle` in `text` (plus `shift` characters). */
function positionOf(text: string, needle: string, shift = 0): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is not in the text`);
  const before = text.slice(0, offset + shift).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

describe("parsePolicy", () => {
  it("accepts a valid policy and keeps its questions in order", () => {
    const policy = parsePolicy(
      policyText(`  urgent:
    type: noul
    instructions: Is it urgent?
    threshold: 0.6
    fallback: true
`),
      "test-policy.yaml",
    );

    assert.equal(policy.name, "test-policy");
    assert.deepEqual(
      policy.questions.map((q) => q.id),
      ["route", "urgent"],
    );
    assert.deepEqual(policy.systemOneQuestions(), {
      route: { type: "choice", instructions: "Which team?", criteria: ["billing", "technical", "legal"] },
      urgent: { type: "noul", instructions: "Is it urgent?" },
    });
    assert.match(policy.sha256, /^[0-9a-f]{64}$/);
  });

  it("reports a YAML syntax error with its line and column", () => {
    const text = `name: test-policy\nversion: "1"\nquestions: [unclosed\n`;

    const problems = problemsOf(text);

    assert.ok(problems.length >= 1);
    assert.ok(
      problems.every((p) => p.file === "test-policy.yaml" && p.message.startsWith("YAML syntax error")),
    );
    assert.ok(problems.some((p) => p.line >= 3));
  });

  it("reports a duplicate key at the repeated key, with the other problems of the file", () => {
    const text = policyText(`    threshold: 0.7\n    colour: red\n`);

    const problems = problemsOf(text);

    const duplicate = problems.find((p) => p.message.startsWith("duplicate key"));
    assert.ok(duplicate, JSON.stringify(problems));
    assert.deepEqual(duplicate.path, ["questions", "route", "threshold"]);
    assert.deepEqual({ line: duplicate.line, column: duplicate.column }, positionOf(text, "threshold: 0.7"));
    assert.ok(problems.some((p) => p.message === 'unknown field "colour"'));
  });

  it("reports an unknown field at its key, with the field path", () => {
    const text = policyText(`    colour: red\n`);

    const [problem, ...rest] = problemsOf(text);

    assert.equal(rest.length, 0);
    assert.deepEqual(problem, {
      file: "test-policy.yaml",
      ...positionOf(text, "colour"),
      path: ["questions", "route", "colour"],
      message: 'unknown field "colour"',
    });
  });

  it("reports a missing required field at the map that lacks it", () => {
    const problems = problemsOf(
      `name: test-policy\ndescription: d\nquestions:\n  q: {type: noul, instructions: i, threshold: 0.5}\n`,
    );

    assert.deepEqual(
      problems.map((p) => [p.path.join("."), p.message, p.line]),
      [
        ["version", 'required field "version" is missing', 1],
        ["questions.q.fallback", 'required field "fallback" is missing', 4],
      ],
    );
  });

  it("reports a fallback that is not an answer of its question", () => {
    const text = policyText().replace("fallback: technical", "fallback: sales");

    const [problem] = problemsOf(text);

    assert.deepEqual(problem?.path, ["questions", "route", "fallback"]);
    assert.deepEqual({ line: problem?.line, column: problem?.column }, positionOf(text, "sales"));
    assert.match(problem?.message ?? "", /fallback "sales" is not one of the labels/);
  });

  it("reports score and noul fallbacks that are not answers", () => {
    const problems = problemsOf(
      policyText(`  level:
    type: score
    instructions: How bad?
    criteria: [low, high]
    threshold: 0.5
    fallback: 2
  urgent:
    type: noul
    instructions: Urgent?
    threshold: 0.5
    fallback: "yes"
`),
    );

    assert.deepEqual(
      problems.map((p) => p.path.join(".")),
      ["questions.level.fallback", "questions.urgent.fallback"],
    );
    assert.match(problems[0]?.message ?? "", /not a level \(0–1\)/);
  });

  it("reports a CEL syntax error at the character where it is, inside the YAML value", () => {
    const text = policyText(
      `rules:\n  - name: broken\n    when: 'answers.route == "legal" &&'\n    review: check\n`,
    );

    const [problem] = problemsOf(text);

    assert.deepEqual(problem?.path, ["rules", 0, "when"]);
    assert.match(problem?.message ?? "", /^CEL syntax error/);
    assert.equal(problem?.line, positionOf(text, "answers.route").line);
  });

  it("reports a CEL type error against the declared facts and question types, at the offending operand", () => {
    const text = policyText(`facts:
  tier: {type: string, required: true}
rules:
  - name: typed
    when: facts.tier == "gold" && answers.route == 3
    review: check
  - name: unknown_fact
    when: facts.teir == "gold"
    review: check
`);

    const problems = problemsOf(text);

    assert.deepEqual(
      problems.map((p) => [p.path.join("."), p.message]),
      [
        ["rules.0.when", "CEL type error: no such overload: string == int"],
        ["rules.1.when", "CEL type error: No such key: teir"],
      ],
    );
    assert.deepEqual(
      { line: problems[0]?.line, column: problems[0]?.column },
      positionOf(text, "answers.route == 3"),
    );
  });

  it("positions a CEL error inside a literal block scalar", () => {
    const text = policyText(`rules:
  - name: multi_line
    when: |
      answers.route == "legal" &&
        answers.route > 2
    review: check
`);

    const [problem] = problemsOf(text);

    assert.deepEqual({ line: problem?.line, column: problem?.column }, positionOf(text, "answers.route > 2"));
  });

  it("refuses a condition that is not a bool", () => {
    const [problem] = problemsOf(
      policyText(`rules:\n  - name: text\n    when: answers.route\n    review: check\n`),
    );

    assert.equal(problem?.message, "CEL expression gives string; it must give bool");
  });

  it("refuses an optional fact read without has(), and accepts it guarded (either side of && or ||)", () => {
    const facts = `facts:\n  tier: string\n  hold: {type: boolean, default: false}\n`;
    const rule = (when: string) => `rules:\n  - name: r\n    when: '${when}'\n    review: check\n`;

    const [unguarded] = problemsOf(policyText(facts + rule(`facts.tier == "gold"`)));
    assert.match(unguarded?.message ?? "", /optional fact "tier" is read without has\(facts.tier\)/);

    for (const when of [
      `has(facts.tier) && facts.tier == "gold"`,
      `facts.tier == "gold" && has(facts.tier)`,
      `!has(facts.tier) || facts.tier == "gold"`,
      `has(facts.tier) ? facts.tier == "gold" : false`,
      `facts.hold`,
    ]) {
      assert.doesNotThrow(() => parsePolicy(policyText(facts + rule(when)), "test-policy.yaml"), when);
    }
    for (const when of [
      `has(facts.tier) || facts.tier == "gold"`,
      `!has(facts.tier) && facts.tier == "gold"`,
    ]) {
      assert.throws(
        () => parsePolicy(policyText(facts + rule(when)), "test-policy.yaml"),
        PolicyLoadError,
        when,
      );
    }
  });

  it("reports a rule that sets an undeclared question or an impossible answer", () => {
    const text = policyText(`rules:
  - name: to_sales
    when: "true"
    set: {route: sales, queue: legal}
`);

    const problems = problemsOf(text);

    assert.deepEqual(
      problems.map((p) => [p.path.join("."), p.message]),
      [
        ["rules.0.set.route", '"sales" is not a label of "route" (billing, technical, legal)'],
        ["rules.0.set.queue", '"queue" is not a question of this policy (route)'],
      ],
    );
  });

  it("reports a rule with no effect or two, and repeated rule names", () => {
    const problems = problemsOf(
      policyText(`rules:
  - name: none
    when: "true"
  - name: both
    when: "true"
    review: a
    reject: b
  - name: both
    when: "true"
    reject: b
`),
    );

    assert.deepEqual(
      problems.map((p) => p.path.join(".")),
      ["rules.0", "rules.1.reject", "rules.2.name"],
    );
  });

  it("reports every problem of a file at once: schema, references and CEL", () => {
    const text = policyText(`    colour: red
facts:
  tier: {type: strin}
rules:
  - name: a
    when: answers.nope == "x"
    set: {queue: legal}
`).replace("threshold: 0.5", "threshold: 1.5");

    const problems = problemsOf(text);

    assert.deepEqual(
      problems.map((p) => p.path.join(".")),
      [
        "questions.route.threshold",
        "questions.route.colour",
        "facts.tier.type",
        "rules.0.when",
        "rules.0.set.queue",
      ],
    );
    assert.ok(problems.every((p) => p.line > 1 && p.column >= 1));
  });

  it("reports event mappings whose CEL does not compile or gives the wrong kind", () => {
    const problems = problemsOf(
      policyText(`events:
  - source: acme.monitoring
    detail-type: Incident Opened
    id: "1 + 1"
    state: event.detail
    facts: '"not a map"'
  - source: acme.monitoring
    detail-type: Incident Opened
    id: event.id
    state: event.detail +
`),
    );

    assert.deepEqual(
      problems.map((p) => [p.path.join("."), p.message.split(":")[0]]),
      [
        ["events.0.id", "CEL expression gives int; it must give string"],
        ["events.0.facts", "CEL expression gives string; it must give a map"],
        ["events.1", 'another mapping already matches source "acme.monitoring" and this detail-type'],
        ["events.1.state", "CEL syntax error"],
      ],
    );
  });

  it("refuses identifiers CEL cannot read and integer-like labels in a criteria map", () => {
    const problems = problemsOf(`name: test-policy
version: "1"
description: d
questions:
  Route:
    type: noul
    instructions: i
    threshold: 0.5
    fallback: true
  in:
    type: noul
    instructions: i
    threshold: 0.5
    fallback: true
  level:
    type: choice
    instructions: i
    criteria: {"1": one, "2": two}
    threshold: 0.5
    fallback: "1"
`);

    assert.deepEqual(
      problems.map((p) => [p.path.join("."), p.message]),
      [
        [
          "questions.Route",
          'key "Route" must be snake_case: a lowercase letter, then lowercase letters, digits or _ (64 at most)',
        ],
        ["questions.in", 'key "in" is a CEL reserved word'],
        [
          "questions.level.criteria.1",
          'label "1" is integer-like: JSON would move it to the front; list the labels instead',
        ],
        [
          "questions.level.criteria.2",
          'label "2" is integer-like: JSON would move it to the front; list the labels instead',
        ],
      ],
    );
  });

  it("refuses an empty file, a list and a file over the size limit", () => {
    assert.match(problemsOf("")[0]?.message ?? "", /the file is empty/);
    assert.match(problemsOf("- a\n- b\n")[0]?.message ?? "", /found a list/);
    assert.match(problemsOf(`# ${"x".repeat(1024 * 1024)}\n`)[0]?.message ?? "", /larger than/);
  });

  it("never throws anything but PolicyLoadError, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        try {
          parsePolicy(text, "any.yaml");
        } catch (error) {
          return error instanceof PolicyLoadError && error.problems.length > 0;
        }
        return true;
      }),
      { numRuns: propertyRuns(process.env, 400) },
    );
  });

  it("never throws anything but PolicyLoadError for arbitrary YAML structures shaped like policies", () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.integer(),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        scalar,
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(
          fc.constantFrom("type", "when", "set", "criteria", "fallback", "x", "__proto__"),
          tie("node"),
          {
            maxKeys: 4,
          },
        ),
      ),
    })).node;
    const policy = fc.record(
      {
        name: fc.oneof(fc.constant("test-policy"), scalar),
        version: fc.oneof(fc.constant("1"), scalar),
        description: fc.oneof(fc.constant("d"), scalar),
        questions: fc.oneof(
          fc.constant({ q: { type: "noul", instructions: "i", threshold: 0.5, fallback: true } }),
          fc.dictionary(fc.constantFrom("q", "r", "Bad"), value, { maxKeys: 2 }),
        ),
        facts: fc.dictionary(
          fc.constantFrom("tier", "pii", "n"),
          fc.oneof(fc.constantFrom("string", "boolean"), value),
        ),
        rules: fc.array(
          fc.record({
            name: fc.oneof(fc.constant("r"), scalar),
            when: fc.oneof(
              fc.constantFrom("true", "facts.tier", "answers.q", "has(facts.pii) && facts.pii", ")"),
              scalar,
            ),
            review: fc.oneof(fc.constant("why"), scalar),
          }),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(policy, (document) => {
        try {
          parsePolicy(JSON.stringify(document), "any.yaml");
        } catch (error) {
          return error instanceof PolicyLoadError && error.problems.length > 0;
        }
        return true;
      }),
      { numRuns: propertyRuns(process.env, 400) },
    );
  });
});
