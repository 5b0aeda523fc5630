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
  const first = reviews[0]?.previous_status ?? outcome.status;
  const replaced = (outcome.history ?? []).flatMap((entry) => [
    `${entry.created_at}  ${entry.status}${entry.model === undefined ? "" : ` by ${entry.model}`} (replaced at ${entry.superseded_at})`,
    ...(entry.reviews ?? []).map(
      (review) =>
        `  ${review.at}  ${review.amendment === true ? "amended" : "reviewed"} by ${review.by ?? "(no name)"}: ${Object.entries(
          review.answers,
        )
          .map(([qid, answer]) => `${qid}=${String(answer)}`)
          .join(", ")}`,
    ),
  ]);
  const lines = [
    ...replaced,
    `${outcome.created_at}  ${first}${outcome.model === undefined ? "" : ` by ${outcome.model}`}${
      outcome.audit === undefined
        ? ""
        : ` (audit item: rate ${outcome.audit.rate}, draw ${outcome.audit.draw.toFixed(4)})`
    }`,
  ];
  if ((outcome.reviews_dropped ?? 0) > 0)
    lines.push(
      `  … ${outcome.reviews_dropped} older superseded review(s) dropped (the history is bounded; what they answered is in the "was" of the reviews that replaced them)`,
    );
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
    const replaced =
      (review.replaces_own ?? []).length > 0
        ? ` (replaces their review of ${(review.replaces_own ?? []).join(", ")})`
        : "";
    lines.push(
      `${review.at}  ${review.amendment === true ? "amended" : "reviewed"} by ${review.by ?? "(no name)"}: ${answers} → ${after}${replaced}`,
    );
  });
  return lines;
}
