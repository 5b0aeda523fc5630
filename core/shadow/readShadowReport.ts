import type { ShadowReport } from "../../contract/outcome/shadowReport.js";
import type { OutcomesReader, ShadowRecordStore } from "../outcomes/index.js";
import { compareDecisions } from "./compareDecisions.js";
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
  /**
   * Disagreeing items listed per question, and failures listed, at most. Default
   * `LISTED_DISAGREEMENTS` and {@link LISTED_FAILURES} (10 each).
   */
  listed?: number;
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
    failures: input.failed.slice(0, options.listed ?? LISTED_FAILURES),
    ...compareDecisions({
      a: input.live,
      b: input.shadow,
      labels: input.labels,
      ...(options.listed === undefined ? {} : { listed: options.listed }),
    }),
  };
}
