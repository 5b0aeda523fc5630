import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import { MAX_OUTCOME_BYTES, TRUNCATED_DISTRIBUTION_LABELS } from "../../contract/outcome/outcomeLimits.js";

/**
 * The outcome unchanged when its JSON fits in `maxBytes` (default {@link MAX_OUTCOME_BYTES}); else
 * a copy whose distributions keep only their most probable labels (and the answer's), marked
 * `distribution_truncated`. Everything else in an outcome is bounded where it is built.
 */
export function boundOutcomeSize(outcome: Outcome, maxBytes: number = MAX_OUTCOME_BYTES): Outcome {
  if (outcome.answers === undefined || Buffer.byteLength(JSON.stringify(outcome)) <= maxBytes) return outcome;
  const answers = Object.fromEntries(
    Object.entries(outcome.answers).map(([qid, answer]) => {
      const entries = Object.entries(answer.distribution);
      if (entries.length <= TRUNCATED_DISTRIBUTION_LABELS) return [qid, answer];
      const kept = entries.sort((a, b) => b[1] - a[1]).slice(0, TRUNCATED_DISTRIBUTION_LABELS);
      const label = String(answer.answer);
      const own = answer.distribution[label];
      if (own !== undefined && !kept.some(([key]) => key === label)) kept.push([label, own]);
      return [qid, { ...answer, distribution: Object.fromEntries(kept), distribution_truncated: true }];
    }),
  );
  return { ...outcome, answers };
}
