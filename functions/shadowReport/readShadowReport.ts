import type { OutcomesReader, ShadowRecord, ShadowRecordStore } from "../outcomes/index.js";
import { compareDecisions, type DecisionComparison } from "./compareDecisions.js";
import { readShadowComparison } from "./readShadowComparison.js";

/** Options of {@link readShadowReport}. */
export interface ReadShadowReportOptions {
  shadows: Pick<ShadowRecordStore, "latest">;
  outcomes: Pick<OutcomesReader, "get">;
  policy: string;
  /** ISO-8601 times of the shadow records read (inclusive). Default: all. */
  since?: string;
  until?: string;
  /** The candidate to compare; required when the records hold more than one. */
  candidate?: string;
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
  /** The first failures (at most {@link LISTED_FAILURES}): item, error class, reason. */
  failures: Array<{ id: string; error: string; reason: string }>;
}

/** Failures listed in a {@link ShadowReport}. */
export const LISTED_FAILURES = 10;

/**
 * Reads a policy's shadow records and the live outcomes of their items and compares them: the one
 * computation behind `decisions shadow report` and the console's `GET /api/policies/{policy}/shadow`.
 * @throws SeveralCandidatesError when the records hold several candidates and none was chosen.
 * @throws what the store and the reader throw (OutcomesTableError, …).
 */
export async function readShadowReport(options: ReadShadowReportOptions): Promise<ShadowReport> {
  const input = await readShadowComparison(options);
  return {
    policy: options.policy,
    candidate: input.candidate ?? null,
    records: input.records,
    failed: input.failed.length,
    missing_live: input.missing_live.length,
    failures: input.failed.slice(0, LISTED_FAILURES),
    ...compareDecisions({ a: input.live, b: input.shadow, labels: input.labels }),
  };
}
