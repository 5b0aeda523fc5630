import { REVIEWED_STATUS, type StoredOutcome } from "../../contract/outcome/OutcomeSchema.js";

/**
 * Whether a person reviewed the outcome: its status is `reviewed`, it holds a review (a partial
 * one keeps the status), or an answer a person set. Such an outcome is replaced only by a
 * supersede that says so (`SUPERSEDE_REPLACE_REVIEWS_PREFIX`); {@link NO_PERSONS_REVIEW_CONDITION}
 * is the same test as a DynamoDB condition, so that it holds under concurrent writers too.
 */
export function hasPersonsReview(
  outcome: Pick<StoredOutcome, "status" | "review" | "reviews" | "answers">,
): boolean {
  return (
    outcome.status === REVIEWED_STATUS ||
    outcome.review !== undefined ||
    (outcome.reviews?.length ?? 0) > 0 ||
    Object.values(outcome.answers ?? {}).some((answer) => answer.source === "human")
  );
}

/**
 * The DynamoDB condition that the stored item has no person's review (see
 * {@link hasPersonsReview}): every review writes `review`, and a full one sets the status
 * `reviewed`. Its names and values go beside the caller's own (`#rv_status`, `#rv_review`,
 * `:rv_reviewed`).
 */
export const NO_PERSONS_REVIEW_CONDITION = {
  expression: "attribute_not_exists(#rv_review) AND #rv_status <> :rv_reviewed",
  names: { "#rv_review": "review", "#rv_status": "status" },
  values: { ":rv_reviewed": REVIEWED_STATUS },
} as const;
