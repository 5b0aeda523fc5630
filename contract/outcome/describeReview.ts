/**
 * How one review of an outcome reads for a person, written once for `decisions outcomes show` and
 * the review console's item history, so that both word a review the same way. Pure and type-only
 * imports: the console page bundles it.
 */
import type { OutcomeReview } from "./OutcomeSchema.js";

/** The name a review without a reviewer's name is shown under. */
export const UNNAMED_REVIEWER = "(no name)";

/** The fields of a review its sentence reads. */
export type DescribedReview = Pick<
  OutcomeReview,
  "by" | "answers" | "previous_answers" | "remaining" | "amendment" | "replaces_own"
>;

/**
 * One review as a sentence: whether it reviewed or amended (changed a person's answer), who, and
 * each answer with the one it replaced; then what it left: a partial review the questions still
 * open, a whole one the status it led to (`statusAfter`, when known); and "(replaces their review
 * of …)" when it replaced the reviewer's own earlier answers.
 *
 * @example describeReview(review, "reviewed") // "amended by carol: queue=billing (was triage) → reviewed"
 * @example describeReview(partial) // "reviewed by bob: priority=P1 (was P2) → partial, still open: queue"
 */
export function describeReview(review: DescribedReview, statusAfter?: string): string {
  const answers = Object.entries(review.answers)
    .map(([qid, answer]) => `${qid}=${String(answer)} (was ${String(review.previous_answers[qid]?.answer)})`)
    .join(", ");
  const open = review.remaining ?? [];
  const after =
    open.length > 0
      ? ` → partial, still open: ${open.join(", ")}`
      : statusAfter === undefined
        ? ""
        : ` → ${statusAfter}`;
  const replaced =
    (review.replaces_own ?? []).length > 0
      ? ` (replaces their review of ${(review.replaces_own ?? []).join(", ")})`
      : "";
  return `${review.amendment === true ? "amended" : "reviewed"} by ${review.by ?? UNNAMED_REVIEWER}: ${answers}${after}${replaced}`;
}
