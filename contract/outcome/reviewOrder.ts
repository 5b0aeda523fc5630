import type { StoredOutcome } from "./OutcomeSchema.js";

/**
 * The orders the review queue can be listed in (console `?order=`, `decisions outcomes list
 * --order`):
 * - `newest`: the newest change first (the by-status index's own order; the whole queue, any size).
 * - `margin`: the smallest distance between an answer's probability and its question's threshold
 *   first — the labels that move a threshold most.
 * - `entropy`: the most spread distribution first (Shannon entropy over the question's labels,
 *   divided by the log of their number so questions with 2 and 8 labels compare) — the items the
 *   model could least tell apart.
 */
export const REVIEW_ORDERS = ["newest", "margin", "entropy"] as const;

/** One of {@link REVIEW_ORDERS}. */
export type ReviewOrder = (typeof REVIEW_ORDERS)[number];

/** Whether `value` names a review order. */
export function isReviewOrder(value: string): value is ReviewOrder {
  return (REVIEW_ORDERS as readonly string[]).includes(value);
}

/**
 * What a label of `outcome` is worth under a worth order, as a number sorted ascending (smaller
 * first): `margin` the smallest |probability − threshold| over the questions asked, in [0, 1];
 * `entropy` minus the largest normalised entropy over them, in [−1, 0]. The questions asked are
 * `questions` when given (the console passes the item's open questions), else every answer the
 * model gave (`source` model or fallback: not a rule's or a person's). An item with none of them
 * is worth least: 1 under `margin`, 0 under `entropy`.
 *
 * @param labels how many labels a question offers (a distribution cut to its most probable labels
 *   holds fewer); default: the distribution's own count
 * @example a fallback at 0.62 under a 0.7 threshold → margin 0.08
 */
export function reviewWorth(
  outcome: Pick<StoredOutcome, "answers">,
  order: Exclude<ReviewOrder, "newest">,
  options: { questions?: readonly string[]; labels?: (question: string) => number | undefined } = {},
): number {
  const answers = Object.entries(outcome.answers ?? {}).filter(([id, answer]) =>
    options.questions === undefined
      ? answer.source === "model" || answer.source === "fallback"
      : options.questions.includes(id),
  );
  if (order === "margin") {
    let margin = 1;
    for (const [, answer] of answers)
      margin = Math.min(margin, Math.abs(answer.probability - answer.threshold));
    return margin;
  }
  let spread = 0;
  for (const [id, answer] of answers)
    spread = Math.max(spread, normalisedEntropy(answer.distribution, options.labels?.(id)));
  // 0, not −0: a worth is written into cursors and compared as text in tests.
  return spread === 0 ? 0 : -spread;
}

/**
 * Shannon entropy of a distribution over log(labels), in [0, 1]: 0 when one label holds all the
 * mass, 1 when the labels are equally likely. Mass a cut distribution lacks counts as one more
 * outcome (an upper bound would need the labels it lost).
 */
export function normalisedEntropy(distribution: Readonly<Record<string, number>>, labels?: number): number {
  const given = Object.values(distribution).filter((p) => p > 0);
  const total = given.reduce((sum, p) => sum + p, 0);
  const rest = Math.max(0, 1 - total);
  const masses = rest > 1e-9 ? [...given, rest] : given;
  const count = Math.max(labels ?? 0, masses.length, Object.keys(distribution).length);
  if (count < 2) return 0;
  const sum = masses.reduce((acc, p) => acc + p, 0);
  let entropy = 0;
  for (const p of masses) {
    const q = p / sum;
    entropy -= q * Math.log(q);
  }
  return Math.min(1, Math.max(0, entropy / Math.log(count)));
}

/** An item's place in a worth order: audit items first, then its worth, then newest first, then policy and id. */
export interface ReviewOrderKey {
  /** 0 for an audit item, 1 for any other: audit items come first under a worth order. */
  tier: 0 | 1;
  worth: number;
  updatedAt: string;
  policy: string;
  id: string;
}

/**
 * The total order of a worth-ordered queue: audit items first (tier 0), then smaller worth first;
 * on equal worth the newer change first; then policy and id (the table's key, unique), so no two
 * items ever tie and a cursor after one key lists every other item exactly once.
 *
 * Audit items come first because they are calibration's unbiased sample only when the ones
 * labelled are not chosen by their confidence: labelled by margin among the fallbacks, the least
 * sure audit items would be labelled and the sure ones left, and the automated error would be
 * overestimated (`decisions calibrate --simulate-budget` shows by how much). They are few (the
 * audit rate sizes them), so the order labels all of them, then spends the rest where it teaches
 * the threshold most.
 */
export function compareReviewOrderKeys(a: ReviewOrderKey, b: ReviewOrderKey): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.worth !== b.worth) return a.worth < b.worth ? -1 : 1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  if (a.policy !== b.policy) return a.policy < b.policy ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}
