import { applyRules, type RulesApplied } from "./applyRules.js";
import { checkFacts } from "./checkFacts.js";
import type { Policy } from "./Policy.js";
import { type AnswersRead, readAnswers } from "./readAnswers.js";
import type { DecidedAnswer, DecisionStatus, ModelAnswer, PolicyDecision, RuleFired } from "./types.js";

/**
 * Applies a policy to the model's answers for one work item. Pure and synchronous; never throws.
 *
 * Four steps, each its own unit:
 *
 * 1. `readAnswers` — per question, in order: the returned distribution with the question's
 *    temperature applied (p^(1/T), renormalised); the model's answer is the most probable label
 *    (ties: the one offered first; noul: yes when P(yes) ≥ 0.5), its probability the number
 *    compared with the threshold (noul: max(p, 1 − p)). Below the threshold the question's
 *    fallback stands (`source: "fallback"`, the model's answer kept in `model_answer`).
 * 2. `checkFacts` — the facts are checked against the declarations; a mismatch rejects the item.
 * 3. `applyRules` — rules in file order, each seeing the answers as earlier rules left them:
 *    `set` writes answers (`source: "rule"`), `review` sends the item to human review (answers no
 *    rule set take their fallback), `reject` rejects the item and stops. A rule whose evaluation
 *    fails (or gives no bool) rejects the item, naming the rule.
 * 4. `decisionOf` — the status, highest first: `rejected` > `fallback` (an answer still on its
 *    fallback, or a review rule fired) > `overridden` (a set rule fired) > `decided`.
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
  const read = readAnswers(policy, answers);
  if (read.rejected !== undefined) return rejected(read.rejected, read.decided, []);
  const checked = checkFacts(policy, facts);
  if (!checked.ok) return rejected(`facts: ${checked.reason}`, read.decided, []);
  const applied = applyRules(policy, checked.facts, read);
  if (applied.rejected !== undefined) return rejected(applied.rejected, read.decided, applied.fired);
  return decisionOf(read, applied);
}

function rejected(
  reason: string,
  answers: Record<string, DecidedAnswer>,
  fired: RuleFired[],
): PolicyDecision {
  return { status: "rejected", reason, answers, rules_fired: fired };
}

/** Step 4: the status, and for `fallback` the reasons (review rules, then answers still below threshold). */
function decisionOf(read: AnswersRead, applied: RulesApplied): PolicyDecision {
  const { decided } = read;
  const onFallback = Object.entries(decided).filter(
    ([, entry]) => entry.source === "fallback" && entry.rule === undefined,
  );
  const stillBelow = read.belowThreshold.filter((line) =>
    onFallback.some(([id]) => line.startsWith(`${id}:`)),
  );
  const status: DecisionStatus =
    applied.reviews.length > 0 || onFallback.length > 0
      ? "fallback"
      : applied.overridden
        ? "overridden"
        : "decided";
  const reasons = [...applied.reviews, ...stillBelow];
  return status === "fallback"
    ? { status, reason: reasons.join("; "), answers: decided, rules_fired: applied.fired }
    : { status, answers: decided, rules_fired: applied.fired };
}
