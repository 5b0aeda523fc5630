/**
 * An outcome's history in words, one entry per event, oldest first: how it was decided, then every
 * review — "reviewed by alice: queue=billing (was triage) → reviewed", "amended by carol: …". The
 * review console's item page and `decisions outcomes show` word it the same way; this is the one
 * place the wording lives. Types only from the schema, so the console's page can bundle it.
 */
import type { OutcomeReview, StoredOutcome } from "./OutcomeSchema.js";

/** One event of an outcome's history: when (absent for a note about the history itself) and what. */
export interface ReviewHistoryEntry {
  /** ISO-8601 time of the event; absent for a note (reviews an earlier version dropped). */
  at?: string;
  text: string;
}

/**
 * The history of `outcome` whose reviews, oldest first, are `reviews` (its `reviews`, or its one
 * `review` from before `reviews` was kept): the decision (the status it got, the model, the audit
 * draw), a note when an earlier version dropped reviews, then one entry per review — who, whether
 * it amended a person's answer, each answer with the one it replaced, and what the item became
 * (or what a partial review left open).
 */
export function reviewHistoryEntries(
  outcome: Pick<StoredOutcome, "created_at" | "status" | "model" | "audit" | "reviews_dropped">,
  reviews: readonly OutcomeReview[],
): ReviewHistoryEntry[] {
  const first = reviews[0]?.previous_status ?? outcome.status;
  const entries: ReviewHistoryEntry[] = [
    {
      at: outcome.created_at,
      text: `${first}${outcome.model === undefined ? "" : ` by ${outcome.model}`}${
        outcome.audit === undefined
          ? ""
          : ` (audit item: rate ${outcome.audit.rate}, draw ${outcome.audit.draw.toFixed(4)})`
      }`,
    },
  ];
  if ((outcome.reviews_dropped ?? 0) > 0)
    entries.push({
      text: `… ${outcome.reviews_dropped} older review(s) dropped by an earlier version (the history was bounded)`,
    });
  reviews.forEach((review, index) => {
    const after =
      (review.remaining ?? []).length > 0
        ? `partial, still open: ${(review.remaining ?? []).join(", ")}`
        : (reviews[index + 1]?.previous_status ?? outcome.status);
    entries.push({ at: review.at, text: describeReview(review, after) });
  });
  return entries;
}

/**
 * One review in words: "amended by carol: queue=sales (was billing) → reviewed", with "(replaces
 * their review of …)" when it replaced the reviewer's own earlier answers. `after` is what the item
 * became (its next status, or "partial, still open: …").
 */
export function describeReview(review: OutcomeReview, after: string): string {
  const answers = Object.entries(review.answers)
    .map(([qid, answer]) => `${qid}=${String(answer)} (was ${String(review.previous_answers[qid]?.answer)})`)
    .join(", ");
  const replaced =
    (review.replaces_own ?? []).length > 0
      ? ` (replaces their review of ${(review.replaces_own ?? []).join(", ")})`
      : "";
  return `${review.amendment === true ? "amended" : "reviewed"} by ${review.by ?? "(no name)"}: ${answers} → ${after}${replaced}`;
}
