/**
 * A policy's `shadow` section: the candidate version it compiles to (this policy with the section's
 * overrides), and the problems of a section that does not make one, each at its place.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyPolicy, PolicyLoadError, type PolicyProblem, parsePolicy } from "../../../core/policy/index.js";
import { choice, peaked, policyText } from "./fabricate.js";

const RULES = `rules:
  - name: legal_hold
    when: has(facts.hold) && facts.hold
    set:
      route: legal
facts:
  hold: boolean
`;

function problemsOf(text: string): PolicyProblem[] {
  try {
    parsePolicy(text, "test-policy.yaml");
  } catch (error) {
    assert.ok(error instanceof PolicyLoadError, `expected PolicyLoadError, got ${String(error)}`);
    return [...error.problems];
  }
  assert.fail("parsePolicy accepted the text");
}

describe("the shadow section", () => {
  it("is absent unless written", () => {
    assert.equal(parsePolicy(policyText(RULES), "test-policy.yaml").shadow, undefined);
  });

  it("compiles a candidate version with the thresholds, temperatures, rules and version it overrides", () => {
    const policy = parsePolicy(
      policyText(`${RULES}shadow:
  candidate: route-v2
  rate: 0.25
  version: "2-candidate"
  thresholds: { route: 0.9 }
  temperatures: { route: 2 }
  rules: []
`),
      "test-policy.yaml",
    );

    const shadow = policy.shadow;
    assert.ok(shadow !== undefined);
    assert.equal(shadow.candidate, "route-v2");
    assert.equal(shadow.rate, 0.25);
    assert.equal(shadow.endpoint, "candidate");
    assert.equal(shadow.policy.version, "2-candidate");
    assert.equal(shadow.policy.sha256, policy.sha256);
    assert.equal(shadow.policy.question("route")?.threshold, 0.9);
    assert.equal(shadow.policy.question("route")?.temperature, 2);
    assert.equal(shadow.policy.rules.length, 0);
    assert.equal(shadow.policy.shadow, undefined);
    // The live policy is untouched.
    assert.equal(policy.version, "1");
    assert.equal(policy.question("route")?.threshold, 0.5);
    assert.equal(policy.rules.length, 1);
    // Same model answer: the live threshold keeps it, the candidate's temperature and threshold do
    // not; under a hold the live rule fires and the candidate (no rules) does not.
    const answers = { route: choice(peaked(["billing", "technical", "legal"], "billing", 0.95)) };
    assert.equal(applyPolicy(policy, { hold: false }, answers).answers.route?.answer, "billing");
    assert.equal(applyPolicy(shadow.policy, { hold: false }, answers).answers.route?.answer, "technical");
    assert.equal(applyPolicy(policy, { hold: true }, answers).answers.route?.answer, "legal");
    assert.deepEqual(applyPolicy(shadow.policy, { hold: true }, answers).rules_fired, []);
  });

  it("keeps the live rules and version when the section does not override them", () => {
    const policy = parsePolicy(
      policyText(`${RULES}shadow:
  candidate: big-model
  rate: 1
  endpoint: live
`),
      "test-policy.yaml",
    );
    assert.equal(policy.shadow?.endpoint, "live");
    assert.equal(policy.shadow?.policy.version, "1");
    assert.deepEqual(
      policy.shadow?.policy.rules.map((rule) => rule.name),
      ["legal_hold"],
    );
    assert.deepEqual(policy.shadow?.policy.systemOneQuestions(), policy.systemOneQuestions());
  });

  it("reports an override of a question the policy does not ask, at its key", () => {
    const problems = problemsOf(
      policyText(`shadow:
  candidate: c1
  rate: 0.1
  thresholds:
    nope: 0.5
`),
    );
    assert.deepEqual(
      problems.map((problem) => [problem.path.join("."), problem.line]),
      [["shadow.thresholds.nope", 15]],
    );
    assert.match(problems[0]?.message ?? "", /not asked by this policy/);
  });

  it("reports a bad candidate name and rate at their place", () => {
    const paths = problemsOf(
      policyText(`shadow:
  candidate: "bad name"
  rate: 1.5
`),
    ).map((problem) => problem.path.join("."));
    assert.deepEqual(paths.sort(), ["shadow.candidate", "shadow.rate"]);
  });

  it("reports a candidate rule's CEL problem under shadow.rules, not under the live rules", () => {
    const paths = problemsOf(
      policyText(`shadow:
  candidate: c1
  rate: 0.5
  rules:
    - name: r
      when: facts.missing == 1
      review: look
`),
    ).map((problem) => problem.path.join("."));
    assert.ok(
      paths.length > 0 && paths.every((path) => path.startsWith("shadow.rules.0.when")),
      paths.join(", "),
    );
  });
});
