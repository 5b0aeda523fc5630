import type { StoredOutcome } from "../../functions/outcomes/index.js";
import { reviewsOf } from "./reviewOutcome.js";

/**
 * An outcome's history for a person, one line per event, oldest first: how it was decided
 * (status, model, audit), then every kept review (who, when, which answers, what stayed open).
 * `decisions outcomes show` prints it beside the stored JSON.
 */
export function formatReviewHistory(outcome: StoredOutcome): string[] {
  const reviews = reviewsOf(outcome);
  const first = reviews[0]?.previous_status ?? outcome.status;
  const lines = [
    `${outcome.created_at}  ${first}${outcome.model === undefined ? "" : ` by ${outcome.model}`}${
      outcome.audit === undefined
        ? ""
        : ` (audit item: rate ${outcome.audit.rate}, draw ${outcome.audit.draw.toFixed(4)})`
    }`,
  ];
  if ((outcome.reviews_dropped ?? 0) > 0)
    lines.push(`  … ${outcome.reviews_dropped} older review(s) not kept (the history is bounded)`);
  reviews.forEach((review, index) => {
    const answers = Object.entries(review.answers)
      .map(
        ([qid, answer]) => `${qid}=${String(answer)} (was ${String(review.previous_answers[qid]?.answer)})`,
      )
      .join(", ");
    const after =
      (review.remaining ?? []).length > 0
        ? `partial, still open: ${(review.remaining ?? []).join(", ")}`
        : (reviews[index + 1]?.previous_status ?? outcome.status);
    lines.push(`${review.at}  reviewed by ${review.by ?? "(no name)"}: ${answers} → ${after}`);
  });
  return lines;
}
