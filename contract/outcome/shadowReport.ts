/**
 * What comparing two sets of decisions finds (`core/shadow`'s `compareDecisions`), and
 * the shadow report built on it — a candidate's shadow records against the live outcomes — as
 * `decisions shadow report --json` prints it and the review console's
 * `GET /api/policies/{policy}/shadow` answers it. Written once here so that the console's page
 * (which imports it type-only) and the server cannot drift.
 */
import type { ShadowRecord } from "./ShadowRecordSchema.js";

/** An answer value: a label, a level, or yes/no. */
export type AnswerValue = string | number | boolean;

/** A count and its share of the items compared. */
export interface Share {
  count: number;
  share: number;
}

/** An accuracy with its 95 % Wilson score interval. */
export interface AccuracyEstimate {
  correct: number;
  accuracy: number;
  /** Its 95 % Wilson score interval. */
  interval: { lower: number; upper: number };
}

/** One question compared. */
export interface QuestionComparison {
  /** Items both sides answered this question for. */
  compared: number;
  /** Share of them whose standing answers are equal. */
  agreement: number;
  agreed: number;
  /** Share whose model answers (before rules and fallbacks) are equal. */
  model_agreement: number;
  /** The question went from an automated answer to review (`fallback`), and back. */
  to_review: Share;
  to_automated: Share;
  /** Share of items on which the question stood on its fallback (went to a person), per side. */
  review_load: { a: Share; b: Share };
  /** The model's confidence (its top probability) per side: histogram counts, mean, and b − a per bin. */
  confidence: { bins: number; a: number[]; b: number[]; shift: number[]; mean_a: number; mean_b: number };
  /**
   * Where a person answered the question: the model answer's accuracy per side, against the person's
   * answer, with 95 % Wilson intervals. Absent when no item compared has a person's answer.
   */
  accuracy?: { labelled: number; a: AccuracyEstimate; b: AccuracyEstimate };
  /** The first disagreeing items: id, a's and b's standing answers. */
  disagreements: Array<{ id: string; a: AnswerValue; b: AnswerValue }>;
}

/** What `compareDecisions` finds. */
export interface DecisionComparison {
  /** Items both sides decided: the items compared. */
  sampled: number;
  /** Items only one side has (not compared). */
  only_a: number;
  only_b: number;
  /** Item status per side, how many changed, and every transition `a→b` with its count. */
  status: {
    a: Record<string, number>;
    b: Record<string, number>;
    changed: Share;
    /** From an automated status (decided, overridden) to review (fallback), and back. */
    to_review: Share;
    to_automated: Share;
    transitions: Record<string, number>;
  };
  /** Items sent to review (status fallback) per side: the review load at each side's thresholds. */
  review_load: { a: Share; b: Share };
  /** Per rule that fired on either side: on how many items, and on how many only one side fired it. */
  rules: Array<{ name: string; a: number; b: number; only_a: number; only_b: number }>;
  /** Per question id. */
  questions: Record<string, QuestionComparison>;
}

/**
 * The shadow report of a policy as `decisions shadow report --json` prints it and the review
 * console's shadow panel draws it: the candidate, the counts of records read, failed and without a
 * live outcome, and the comparison of live (`a`) and candidate (`b`) — `sampled` (the items
 * compared), status transitions, review load, rules, and per question agreement, moves to and from
 * review, the confidence histograms and, where people answered, accuracy with Wilson intervals.
 */
export interface ShadowReport extends DecisionComparison {
  policy: string;
  candidate: ShadowRecord["candidate"] | null;
  /** Shadow records read (the newest per item). */
  records: number;
  /** Records whose candidate gave no result. */
  failed: number;
  /** Records whose item has no live outcome in the table. */
  missing_live: number;
  /** The first failures (at most `LISTED_FAILURES`, 10): item, error class, reason. */
  failures: Array<{ id: string; error: string; reason: string }>;
}
