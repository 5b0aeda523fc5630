import {
  compareReviewOrderKeys,
  type ReviewOrder,
  type ReviewOrderKey,
  reviewWorth,
} from "../../contract/outcome/reviewOrder.js";
import type { StoredOutcome } from "../../core/outcomes/index.js";

/** Outcomes `outcomes list --order margin|entropy` reads to order, by default (its bound). */
export const DEFAULT_ORDER_WINDOW = 1000;

/** An outcome with its worth under a worth order. */
export interface OrderedOutcome {
  outcome: StoredOutcome;
  worth: number;
}

/**
 * Outcomes in a review order: `newest` keeps them as given (the caller read them newest first);
 * `margin` and `entropy` put audit items first, then sort by `reviewWorth` over every answer the
 * model gave, then newest, then policy and id — the console queue's total order
 * (`compareReviewOrderKeys`), so equal worths never swap between runs.
 */
export function orderOutcomes(outcomes: readonly StoredOutcome[], order: ReviewOrder): OrderedOutcome[] {
  if (order === "newest") return outcomes.map((outcome) => ({ outcome, worth: 0 }));
  return outcomes
    .map((outcome) => ({ outcome, worth: reviewWorth(outcome, order) }))
    .sort((a, b) => compareReviewOrderKeys(keyOf(a), keyOf(b)));
}

function keyOf(entry: OrderedOutcome): ReviewOrderKey {
  return {
    tier: entry.outcome.audit === undefined ? 1 : 0,
    worth: entry.worth,
    updatedAt: entry.outcome.updated_at,
    policy: entry.outcome.policy,
    id: entry.outcome.id,
  };
}
