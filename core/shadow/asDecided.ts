import { type OutcomeAnswer, reviewsOf, type ShadowResult, type StoredOutcome } from "../outcomes/index.js";

/** An item's decision as the pipeline (or a candidate) made it, before any person's review. */
export interface DecidedItem {
  /** `decided`, `overridden`, `fallback` or `rejected`. */
  status: string;
  answers?: Record<string, OutcomeAnswer>;
  rules_fired?: ReadonlyArray<{ name: string }>;
}

/** A decision and what people answered on it. */
export interface DecidedWithLabels {
  decision: DecidedItem;
  /** Question id → a person's answer (reviewed or audited items); empty when none. */
  labels: Record<string, string | number | boolean>;
}

/**
 * An outcome as the pipeline decided it, and what people answered: a reviewed outcome's status
 * and answers are taken back to what stood before its first review (the person's answers become
 * its labels), so that a comparison grades the pipeline, not the reviewer. The model's
 * probabilities and distributions are the pipeline's either way.
 */
export function asDecided(outcome: StoredOutcome): DecidedWithLabels {
  const reviews = reviewsOf(outcome);
  const labels: Record<string, string | number | boolean> = {};
  const answers: Record<string, OutcomeAnswer> = {};
  for (const [qid, answer] of Object.entries(outcome.answers ?? {})) {
    if (answer.source !== "human") {
      answers[qid] = { ...answer, source: answer.source };
      continue;
    }
    labels[qid] = answer.answer;
    const before = reviews.find((review) => review.previous_answers[qid] !== undefined)?.previous_answers[
      qid
    ];
    const standing = before !== undefined && before.source !== "human" ? before : undefined;
    answers[qid] = {
      ...answer,
      answer: standing?.answer ?? answer.model_answer ?? answer.answer,
      source: standing?.source === undefined ? "model" : (standing.source as OutcomeAnswer["source"]),
      probability:
        answer.distribution[String(standing?.answer ?? answer.model_answer ?? answer.answer)] ??
        answer.probability,
    };
    if (standing === undefined || standing.source === "model") delete answers[qid]?.model_answer;
  }
  const status = reviews[0]?.previous_status ?? outcome.status;
  return {
    decision: {
      status,
      ...(outcome.answers === undefined ? {} : { answers }),
      rules_fired: outcome.rules_fired,
    },
    labels,
  };
}

/** A candidate's shadow result as a decision. */
export function shadowDecision(result: ShadowResult): DecidedItem {
  return {
    status: result.status,
    ...(result.answers === undefined ? {} : { answers: result.answers }),
    rules_fired: result.rules_fired,
  };
}
