/**
 * decide: temperature, thresholds and fallbacks, rules in file order, status precedence — with
 * fabricated answers, no model.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SystemOneAnswer } from "../../../adapter/engine/systemOne/systemOneTypes.js";
import { applyPolicy } from "../../../core/policy/index.js";
import { choice, noul, score, testPolicy } from "./fabricate.js";

const QUESTIONS = `  level:
    type: score
    instructions: How bad?
    criteria: [none, low, high]
    threshold: 0.5
    fallback: 2
  urgent:
    type: noul
    instructions: Urgent?
    threshold: 0.6
    fallback: true
`;

const confident = {
  route: choice({ billing: 0.9, technical: 0.05, legal: 0.05 }),
  level: score([0.1, 0.8, 0.1]),
  urgent: noul(0.1),
};

describe("applyPolicy", () => {
  it("decides with the model's answers when every probability reaches its threshold", () => {
    const policy = testPolicy(QUESTIONS);

    const decision = applyPolicy(policy, undefined, confident);

    assert.equal(decision.status, "decided");
    assert.equal(decision.reason, undefined);
    assert.deepEqual(decision.rules_fired, []);
    assert.deepEqual(decision.answers.route, {
      answer: "billing",
      probability: 0.9,
      distribution: { billing: 0.9, technical: 0.05, legal: 0.05 },
      threshold: 0.5,
      source: "model",
    });
    assert.equal(decision.answers.level?.answer, 1);
    assert.ok(Math.abs((decision.answers.level?.score ?? 0) - 1) < 1e-12);
    assert.equal(decision.answers.urgent?.answer, false);
    assert.equal(decision.answers.urgent?.probability, 0.9);
    assert.deepEqual(decision.answers.urgent?.distribution, { true: 0.1, false: 0.9 });
  });

  it("uses the fallback below the threshold, recording the threshold and the model's answer", () => {
    const policy = testPolicy(QUESTIONS);

    const decision = applyPolicy(
      policy,
      {},
      { ...confident, route: choice({ billing: 0.45, technical: 0.35, legal: 0.2 }) },
    );

    assert.equal(decision.status, "fallback");
    assert.deepEqual(decision.answers.route, {
      answer: "technical",
      probability: 0.45,
      distribution: { billing: 0.45, technical: 0.35, legal: 0.2 },
      threshold: 0.5,
      source: "fallback",
      model_answer: "billing",
    });
    assert.equal(decision.reason, "route: probability 0.45 below threshold 0.5");
  });

  it("measures a noul answer by max(p, 1 − p): 0.45 is 0.55 sure of no", () => {
    const policy = testPolicy(QUESTIONS);

    const decision = applyPolicy(policy, {}, { ...confident, urgent: noul(0.45) });

    assert.equal(decision.answers.urgent?.source, "fallback");
    assert.equal(decision.answers.urgent?.probability, 0.55);
    assert.equal(decision.answers.urgent?.model_answer, false);
    assert.equal(decision.answers.urgent?.answer, true);
  });

  it("applies the question's temperature before the threshold (0.64 at T = 2 becomes 4/7 < 0.6)", () => {
    const warm = testPolicy(
      QUESTIONS.replace("    fallback: true\n", "    fallback: true\n    temperature: 2\n"),
    );
    const cold = testPolicy(QUESTIONS);
    const answers = { ...confident, urgent: noul(0.64) };

    const warmDecision = applyPolicy(warm, {}, answers);
    const coldDecision = applyPolicy(cold, {}, answers);

    assert.equal(coldDecision.answers.urgent?.source, "model");
    assert.equal(coldDecision.answers.urgent?.probability, 0.64);
    // √0.64 : √0.36 = 0.8 : 0.6 → 4/7 ≈ 0.571
    assert.ok(Math.abs((warmDecision.answers.urgent?.probability ?? 0) - 4 / 7) < 1e-12);
    assert.equal(warmDecision.answers.urgent?.source, "fallback");
    assert.ok(Math.abs((warmDecision.answers.urgent?.distribution.false ?? 0) - 3 / 7) < 1e-12);
  });

  it("recomputes a score's expected level and confidence after the temperature", () => {
    const policy = testPolicy(
      QUESTIONS.replace("    fallback: 2\n", "    fallback: 2\n    temperature: 0.5\n"),
    );

    const decision = applyPolicy(policy, {}, { ...confident, level: score([0.2, 0.2, 0.6]) });

    // squares: 0.04, 0.04, 0.36 → /0.44
    assert.ok(Math.abs((decision.answers.level?.probability ?? 0) - 0.36 / 0.44) < 1e-12);
    assert.ok(Math.abs((decision.answers.level?.score ?? 0) - (0.04 + 2 * 0.36) / 0.44) < 1e-12);
    assert.equal(decision.answers.level?.answer, 2);
  });

  it("breaks ties towards the option offered first, as the engine does", () => {
    const policy = testPolicy();

    const decision = applyPolicy(policy, {}, { route: choice({ billing: 0.2, technical: 0.4, legal: 0.4 }) });

    assert.equal(decision.answers.route?.model_answer, "technical");
  });

  it("lets a set rule override the model: status overridden, rule named, model answer kept", () => {
    const policy = testPolicy(`rules:
  - name: urgent_to_legal
    when: answers.route == "billing" && confidence.route > 0.8
    set: {route: legal}
`);

    const decision = applyPolicy(
      policy,
      {},
      { route: choice({ billing: 0.9, technical: 0.05, legal: 0.05 }) },
    );

    assert.equal(decision.status, "overridden");
    assert.deepEqual(decision.rules_fired, [
      { name: "urgent_to_legal", effect: "set", set: { route: "legal" } },
    ]);
    assert.equal(decision.answers.route?.answer, "legal");
    assert.equal(decision.answers.route?.source, "rule");
    assert.equal(decision.answers.route?.rule, "urgent_to_legal");
    assert.equal(decision.answers.route?.model_answer, "billing");
    assert.equal(decision.answers.route?.probability, 0.9);
  });

  it("applies rules in file order, each seeing the answers earlier rules left", () => {
    const policy = testPolicy(`rules:
  - name: first
    when: answers.route == "billing"
    set: {route: technical}
  - name: second
    when: answers.route == "technical" && model.route == "billing"
    set: {route: legal}
`);

    const decision = applyPolicy(
      policy,
      {},
      { route: choice({ billing: 0.9, technical: 0.05, legal: 0.05 }) },
    );

    assert.deepEqual(
      decision.rules_fired.map((rule) => rule.name),
      ["first", "second"],
    );
    assert.equal(decision.answers.route?.answer, "legal");
  });

  it("a set rule replaces a fallback answer; with no fallback left the status is overridden", () => {
    const policy = testPolicy(`rules:
  - name: pick_billing
    when: answers.route == "technical"
    set: {route: billing}
`);

    const decision = applyPolicy(policy, {}, { route: choice({ billing: 0.3, technical: 0.3, legal: 0.4 }) });

    assert.equal(decision.status, "overridden");
    assert.equal(decision.answers.route?.source, "rule");
    assert.equal(decision.answers.route?.model_answer, "legal");
  });

  it("a review rule forces the fallback on answers no rule set, and the status is fallback", () => {
    const policy = testPolicy(`${QUESTIONS}rules:
  - name: keep_route
    when: "true"
    set: {route: legal}
  - name: look
    when: scores.level < 1.5
    review: Please look.
`);

    const decision = applyPolicy(policy, {}, confident);

    assert.equal(decision.status, "fallback");
    assert.equal(decision.reason, "look: Please look.");
    assert.equal(decision.answers.route?.answer, "legal");
    assert.equal(decision.answers.route?.source, "rule");
    assert.deepEqual(
      [decision.answers.level?.answer, decision.answers.level?.source, decision.answers.level?.rule],
      [2, "fallback", "look"],
    );
    assert.equal(decision.answers.urgent?.answer, true);
    assert.equal(decision.answers.urgent?.model_answer, false);
  });

  it("a reject rule rejects with its reason and stops the rules after it", () => {
    const policy = testPolicy(`rules:
  - name: no_legal
    when: answers.route == "legal"
    reject: Legal tickets are not handled here.
  - name: never
    when: "true"
    set: {route: billing}
`);

    const decision = applyPolicy(policy, {}, { route: choice({ billing: 0.1, technical: 0.1, legal: 0.8 }) });

    assert.equal(decision.status, "rejected");
    assert.equal(decision.reason, "no_legal: Legal tickets are not handled here.");
    assert.deepEqual(
      decision.rules_fired.map((rule) => rule.effect),
      ["reject"],
    );
  });

  it("rejects > fallback > overridden: a rejected item stays rejected whatever fired before", () => {
    const policy = testPolicy(`rules:
  - name: set_it
    when: "true"
    set: {route: billing}
  - name: review_it
    when: "true"
    review: look
  - name: reject_it
    when: "true"
    reject: no
`);

    const decision = applyPolicy(policy, {}, { route: choice({ billing: 0.2, technical: 0.2, legal: 0.6 }) });

    assert.equal(decision.status, "rejected");
    assert.equal(decision.rules_fired.length, 3);
  });

  it("rejects, naming the rule, when a rule's evaluation fails", () => {
    const policy = testPolicy(`facts:
  amount: {type: number, required: true}
rules:
  - name: ratio
    when: "[1, 2][int(facts.amount)] == 1"
    review: look
`);

    const decision = applyPolicy(
      policy,
      { amount: 7 },
      { route: choice({ billing: 0.9, technical: 0.05, legal: 0.05 }) },
    );

    assert.equal(decision.status, "rejected");
    assert.match(decision.reason ?? "", /^rule "ratio" failed: /);
    assert.equal(decision.answers.route?.answer, "billing");
  });

  it("rejects an item whose facts do not match the declarations, without running rules", () => {
    const policy = testPolicy(`facts:
  tier: {type: string, enum: [free, pro]}
rules:
  - name: any
    when: "true"
    set: {route: billing}
`);

    const decision = applyPolicy(
      policy,
      { tier: "gold" },
      { route: choice({ billing: 0.9, technical: 0.05, legal: 0.05 }) },
    );

    assert.equal(decision.status, "rejected");
    assert.match(decision.reason ?? "", /^facts: tier: /);
    assert.deepEqual(decision.rules_fired, []);
  });

  it("rejects a missing or malformed model answer with the reason, never throws", () => {
    const policy = testPolicy(QUESTIONS);

    const cases = [
      [{ ...confident, urgent: undefined }, 'answer to "urgent": no answer'],
      [{ ...confident, route: noul(0.5) }, 'answer to "route": answer type "noul", expected choice'],
      [
        { ...confident, route: choice({ billing: 0.9, sales: 0.1 }) },
        /missing technical, legal; unexpected sales/,
      ],
      [{ ...confident, route: choice({ billing: 0.9, technical: 0.9, legal: 0.1 }) }, /sum to 1.9/],
      [{ ...confident, level: score([0.5, Number.NaN, 0.5]) }, /not a number in \[0, 1\]/],
      [{ ...confident, urgent: noul(1.5) }, /noul is not a probability/],
    ] as const;
    for (const [answers, reason] of cases) {
      const decision = applyPolicy(policy, {}, answers as never);
      assert.equal(decision.status, "rejected");
      if (typeof reason === "string") assert.equal(decision.reason, reason);
      else assert.match(decision.reason ?? "", reason);
    }
  });

  it("takes the engine's System One answers as they come", () => {
    const policy = testPolicy();
    const fromEngine: Record<string, SystemOneAnswer> = {
      route: {
        type: "choice",
        choice: "legal",
        confidence: 0.7,
        probabilities: { billing: 0.2, technical: 0.1, legal: 0.7 },
      },
    };

    const decision = applyPolicy(policy, {}, fromEngine);

    assert.equal(decision.answers.route?.answer, "legal");
  });
});
