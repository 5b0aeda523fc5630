import type { StoredOutcome } from "../../contract/outcome/OutcomeSchema.js";

/**
 * The questions of an outcome a reviewer still has to answer: those standing on their fallback,
 * and on an audit item (a `decided` one the policy's `audit_rate` sent to review) those the model
 * answered. A question a person answered (`source: "human"`) is never open again; a question set
 * by a rule is the policy's own decision, not the model's, so an audit does not ask for it.
 */
export function openQuestions(outcome: StoredOutcome): string[] {
  const audited = outcome.audit !== undefined && outcome.status !== "fallback";
  return Object.entries(outcome.answers ?? {})
    .filter(([, answer]) => answer.source === "fallback" || (audited && answer.source === "model"))
    .map(([id]) => id);
}
