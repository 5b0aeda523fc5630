import { applyTemperature } from "./applyTemperature.js";
import { checkFacts } from "./checkFacts.js";
import type { Policy } from "./Policy.js";
import { readModelAnswer } from "./readModelAnswer.js";
import type {
  AnswerValue,
  DecidedAnswer,
  DecisionStatus,
  ModelAnswer,
  PolicyDecision,
  PolicyQuestion,
  RuleFired,
} from "./types.js";

/**
 * Applies a policy to the model's answers for one work item. Pure and synchronous; never throws.
 *
 * 1. Per question, in order: the returned distribution with the question's temperature applied
 *    (p^(1/T), renormalised); the model's answer is the most probable label (ties: the one offered
 *    first; noul: yes when P(yes) ≥ 0.5), its probability the number compared with the threshold
 *    (noul: max(p, 1 − p)). Below the threshold the question's fallback stands (`source:
 *    "fallback"`, the model's answer kept in `model_answer`).
 * 2. The facts are checked against the declarations (`checkFacts`); a mismatch rejects the item.
 * 3. Rules in file order, each seeing the answers as earlier rules left them: `set` writes answers
 *    (`source: "rule"`), `review` sends the item to human review (answers no rule set take their
 *    fallback), `reject` rejects the item and stops. A rule whose evaluation fails (or gives no
 *    bool) rejects the item, naming the rule.
 * 4. Status, highest first: `rejected` > `fallback` (an answer still on its fallback, or a review
 *    rule fired) > `overridden` (a set rule fired) > `decided`.
 *
 * A missing or malformed answer (type, labels, probabilities) rejects the item with the reason.
 *
 * @param facts the work item's facts (`undefined` counts as none)
 * @param answers the System One response's `answers`, keyed by question id
 */
export function applyPolicy(
  policy: Policy,
  facts: unknown,
  answers: Readonly<Record<string, ModelAnswer>>,
): PolicyDecision {
  const decided: Record<string, DecidedAnswer> = {};
  const modelAnswers: Record<string, AnswerValue> = {};
  const confidence: Record<string, number> = {};
  const scores: Record<string, number> = {};
  const belowThreshold: string[] = [];

  for (const question of policy.questions) {
    const read = readModelAnswer(
      question,
      Object.hasOwn(answers, question.id) ? answers[question.id] : undefined,
    );
    if (!read.ok) {
      return {
        status: "rejected",
        reason: `answer to "${question.id}": ${read.reason}`,
        answers: decided,
        rules_fired: [],
      };
    }
    const probabilities = applyTemperature(read.probabilities, question.temperature);
    const best = argmax(probabilities);
    const probability = probabilities[best] ?? 0;
    const modelAnswer = answerAt(question, best);
    const entry: DecidedAnswer = {
      answer: modelAnswer,
      probability,
      distribution: Object.fromEntries(
        question.labels.map((label, index) => [label, probabilities[index] ?? 0]),
      ),
      threshold: question.threshold,
      source: "model",
    };
    if (question.type === "score") {
      entry.score = probabilities.reduce((sum, p, level) => sum + level * p, 0);
      scores[question.id] = entry.score;
    }
    if (probability < question.threshold) {
      entry.answer = question.fallback;
      entry.source = "fallback";
      entry.model_answer = modelAnswer;
      belowThreshold.push(
        `${question.id}: probability ${round(probability)} below threshold ${question.threshold}`,
      );
    }
    decided[question.id] = entry;
    modelAnswers[question.id] = modelAnswer;
    confidence[question.id] = probability;
  }

  const checked = checkFacts(policy, facts);
  if (!checked.ok) {
    return { status: "rejected", reason: `facts: ${checked.reason}`, answers: decided, rules_fired: [] };
  }

  const fired: RuleFired[] = [];
  const reviews: string[] = [];
  let overridden = false;
  for (const rule of policy.rules) {
    const context = {
      facts: checked.facts,
      answers: Object.fromEntries(Object.entries(decided).map(([id, entry]) => [id, entry.answer])),
      model: modelAnswers,
      confidence,
      scores,
    };
    let holds: unknown;
    try {
      holds = rule.condition(context);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
      return {
        status: "rejected",
        reason: `rule "${rule.name}" failed: ${message}`,
        answers: decided,
        rules_fired: fired,
      };
    }
    if (typeof holds !== "boolean") {
      return {
        status: "rejected",
        reason: `rule "${rule.name}" failed: its condition gave ${typeof holds}, not a bool`,
        answers: decided,
        rules_fired: fired,
      };
    }
    if (!holds) continue;
    const effect = rule.effect;
    switch (effect.kind) {
      case "set":
        fired.push({ name: rule.name, effect: "set", set: { ...effect.answers } });
        for (const [id, answer] of Object.entries(effect.answers)) {
          const entry = decided[id];
          if (entry === undefined) continue;
          decided[id] = {
            ...entry,
            answer,
            source: "rule",
            rule: rule.name,
            model_answer: modelAnswers[id] ?? answer,
          };
        }
        overridden = true;
        break;
      case "review":
        fired.push({ name: rule.name, effect: "review", reason: effect.reason });
        reviews.push(`${rule.name}: ${effect.reason}`);
        for (const question of policy.questions) {
          const entry = decided[question.id];
          if (entry?.source !== "model") continue;
          decided[question.id] = {
            ...entry,
            answer: question.fallback,
            source: "fallback",
            rule: rule.name,
            model_answer: entry.answer,
          };
        }
        break;
      case "reject":
        fired.push({ name: rule.name, effect: "reject", reason: effect.reason });
        return {
          status: "rejected",
          reason: `${rule.name}: ${effect.reason}`,
          answers: decided,
          rules_fired: fired,
        };
    }
  }

  const onFallback = Object.entries(decided).filter(
    ([, entry]) => entry.source === "fallback" && entry.rule === undefined,
  );
  const stillBelow = belowThreshold.filter((line) => onFallback.some(([id]) => line.startsWith(`${id}:`)));
  const status: DecisionStatus =
    reviews.length > 0 || onFallback.length > 0 ? "fallback" : overridden ? "overridden" : "decided";
  const reasons = [...reviews, ...stillBelow];
  return status === "fallback"
    ? { status, reason: reasons.join("; "), answers: decided, rules_fired: fired }
    : { status, answers: decided, rules_fired: fired };
}

/** The answer value of the label at `index`: the label, the level, or yes (index 0) / no. */
function answerAt(question: PolicyQuestion, index: number): AnswerValue {
  switch (question.type) {
    case "choice":
      return question.labels[index] ?? question.fallback;
    case "score":
      return index;
    case "noul":
      return index === 0;
  }
}

/** Index of the largest value; ties go to the earliest (the option offered first), as in the engine. */
function argmax(values: readonly number[]): number {
  let best = 0;
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index] ?? 0) > (values[best] ?? 0)) best = index;
  }
  return best;
}

function round(probability: number): number {
  return Number(probability.toPrecision(3));
}
