import type { CompiledRule, Policy } from "./Policy.js";
import type { AnswersRead } from "./readAnswers.js";
import type { RuleFired } from "./types.js";

/** What the rules did: step 3 of `applyPolicy`. */
export interface RulesApplied {
  /** The rules that fired, in order. */
  fired: RuleFired[];
  /** One line per review rule that fired (`name: reason`). */
  reviews: string[];
  /** Whether a set rule fired. */
  overridden: boolean;
  /** Why the item is rejected (a reject rule, or a rule whose evaluation failed); rules stop there. */
  rejected?: string;
}

/**
 * Runs the policy's rules in file order over the checked facts and the answers read (see
 * `applyPolicy`, step 3), each rule seeing the answers as earlier rules left them. Writes the
 * rules' effects into `read.decided`.
 */
export function applyRules(policy: Policy, facts: Record<string, unknown>, read: AnswersRead): RulesApplied {
  const applied: RulesApplied = { fired: [], reviews: [], overridden: false };
  for (const rule of policy.rules) {
    const evaluated = evaluateCondition(rule, facts, read);
    if (!evaluated.ok) return { ...applied, rejected: `rule "${rule.name}" failed: ${evaluated.reason}` };
    if (!evaluated.holds) continue;
    const rejected = applyEffect(policy, rule, read, applied);
    if (rejected !== undefined) return { ...applied, rejected };
  }
  return applied;
}

/** A rule's condition over the answers as they stand: whether it holds, or why it failed. */
function evaluateCondition(
  rule: CompiledRule,
  facts: Record<string, unknown>,
  read: AnswersRead,
): { ok: true; holds: boolean } | { ok: false; reason: string } {
  const context = {
    facts,
    answers: Object.fromEntries(Object.entries(read.decided).map(([id, entry]) => [id, entry.answer])),
    model: read.modelAnswers,
    confidence: read.confidence,
    scores: read.scores,
  };
  let holds: unknown;
  try {
    holds = rule.condition(context);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return { ok: false, reason: `${message}` };
  }
  if (typeof holds !== "boolean") {
    return { ok: false, reason: `its condition gave ${typeof holds}, not a bool` };
  }
  return { ok: true, holds };
}

/** Applies a rule that fired; returns the rejection reason for a reject rule. */
function applyEffect(
  policy: Policy,
  rule: CompiledRule,
  read: AnswersRead,
  applied: RulesApplied,
): string | undefined {
  const effect = rule.effect;
  switch (effect.kind) {
    case "set":
      applied.fired.push({ name: rule.name, effect: "set", set: { ...effect.answers } });
      for (const [id, answer] of Object.entries(effect.answers)) {
        const entry = read.decided[id];
        if (entry === undefined) continue;
        read.decided[id] = {
          ...entry,
          answer,
          source: "rule",
          rule: rule.name,
          model_answer: read.modelAnswers[id] ?? answer,
        };
      }
      applied.overridden = true;
      return undefined;
    case "review":
      applied.fired.push({ name: rule.name, effect: "review", reason: effect.reason });
      applied.reviews.push(`${rule.name}: ${effect.reason}`);
      sendToFallback(policy, rule, read);
      return undefined;
    case "reject":
      applied.fired.push({ name: rule.name, effect: "reject", reason: effect.reason });
      return `${rule.name}: ${effect.reason}`;
  }
}

/** A review rule fired: every answer still the model's takes its question's fallback. */
function sendToFallback(policy: Policy, rule: CompiledRule, read: AnswersRead): void {
  for (const question of policy.questions) {
    const entry = read.decided[question.id];
    if (entry?.source !== "model") continue;
    read.decided[question.id] = {
      ...entry,
      answer: question.fallback,
      source: "fallback",
      rule: rule.name,
      model_answer: entry.answer,
    };
  }
}
