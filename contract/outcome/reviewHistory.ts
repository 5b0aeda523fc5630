/**
 * An outcome's history in words, one entry per event, oldest first: how it was decided, then every
 * review — "reviewed by alice: queue=billing (was triage) → reviewed", "amended by carol: …". The
 * review console's item page and `decisions outcomes show` word it the same way; this is the one
 * place the wording lives. Types only from the schema, so the console's page can bundle it.
 */
import { describeReview } from "./describeReview.js";
import type { OutcomeReview, StoredOutcome } from "./OutcomeSchema.js";

/** One event of an outcome's history: when (absent for a note about the history itself) and what. */
export interface ReviewHistoryEntry {
  /** ISO-8601 time of the event; absent for a note about the history (reviews dropped to bound it). */
  at?: string;
  text: string;
}

/**
 * The history of `outcome` whose reviews, oldest first, are `reviews` (its `reviews`, or its one
 * `review` from before `reviews` was kept): the decision (the status it got, the model, the audit
 * draw), a note when reviews were dropped to bound the history, then one entry per review — who, whether
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
      text: `… ${outcome.reviews_dropped} older superseded review(s) dropped (the history is bounded; what they answered is in the "was" of the reviews that replaced them)`,
    });
  reviews.forEach((review, index) => {
    entries.push({
      at: review.at,
      text: describeReview(review, reviews[index + 1]?.previous_status ?? outcome.status),
    });
  });
  return entries;
}
