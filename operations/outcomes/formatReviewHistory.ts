import { UNNAMED_REVIEWER } from "../../contract/outcome/describeReview.js";
import { reviewHistoryEntries } from "../../contract/outcome/reviewHistory.js";
import { reviewsOf, type StoredOutcome } from "../../core/outcomes/index.js";

/**
 * An outcome's history for a person, one line per event, oldest first: the outcomes a redecide
 * replaced (`history`: each with its reviews, every answer under its reviewer's name), then how
 * this one was decided (status, model, audit), then every review (who, when, which answers, what
 * stayed open, whether it amended a person's answer or replaced the reviewer's own earlier one).
 * `decisions outcomes show` prints it beside the stored JSON.
 */
export function formatReviewHistory(outcome: StoredOutcome): string[] {
  const reviews = reviewsOf(outcome);
  const replaced = (outcome.history ?? []).flatMap((entry) => [
    `${entry.created_at}  ${entry.status}${entry.model === undefined ? "" : ` by ${entry.model}`} (replaced at ${entry.superseded_at})`,
    ...(entry.reviews ?? []).map(
      (review) =>
        `  ${review.at}  ${review.amendment === true ? "amended" : "reviewed"} by ${review.by ?? UNNAMED_REVIEWER}: ${Object.entries(
          review.answers,
        )
          .map(([qid, answer]) => `${qid}=${String(answer)}`)
          .join(", ")}`,
    ),
  ]);
  // How this one was decided and every review: worded as the console's history words them.
  const events = reviewHistoryEntries(outcome, reviews).map((entry) =>
    entry.at === undefined ? `  ${entry.text}` : `${entry.at}  ${entry.text}`,
  );
  return [...replaced, ...events];
}
