import { describeReview } from "../../contract/outcome/describeReview.js";
import { reviewsOf, type StoredOutcome } from "../../core/outcomes/index.js";

/**
 * An outcome's history for a person, one line per event, oldest first: how it was decided
 * (status, model, audit), then every review (who, when, which answers, what stayed open, whether it
 * amended a person's answer or replaced the reviewer's own earlier one).
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
    lines.push(
      `  … ${outcome.reviews_dropped} older review(s) dropped by an earlier version (the history was bounded)`,
    );
  reviews.forEach((review, index) => {
    const after = reviews[index + 1]?.previous_status ?? outcome.status;
    const replaced =
      (review.replaces_own ?? []).length > 0
        ? ` (replaces their review of ${(review.replaces_own ?? []).join(", ")})`
        : "";
    // The sentence the console's history shows too (contract/outcome/describeReview).
    lines.push(`${review.at}  ${describeReview(review, after)}${replaced}`);
  });
  return lines;
}
