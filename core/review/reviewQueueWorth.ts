import { type ReviewOrder, reviewWorth } from "../../contract/outcome/reviewOrder.js";
import { openQuestions, type StoredOutcome } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";

/**
 * What a label of a waiting item is worth under a worth order, as the review queue orders it (the
 * console's `?order=` and `decisions outcomes list --order`): `reviewWorth` over the item's open
 * questions, each counted with the number of labels its policy's question offers.
 *
 * @param policy the item's policy, when loaded (else each distribution's own label count)
 */
export function reviewQueueWorth(
  outcome: StoredOutcome,
  order: Exclude<ReviewOrder, "newest">,
  policy: Pick<Policy, "question"> | undefined,
): number {
  return reviewWorth(outcome, order, {
    questions: openQuestions(outcome),
    labels: (question) => policy?.question(question)?.labels.length,
  });
}
