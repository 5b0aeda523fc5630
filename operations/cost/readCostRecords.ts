import { type DecisionUsage, decisionUsageOf } from "../../contract/index.js";
import type { JobLedger } from "../../core/jobs/index.js";
import type { OutcomesReader } from "../../core/outcomes/index.js";

/** One decision as the cost report counts it: its policy and what its endpoint request cost. */
export interface CostRecord {
  policy: string;
  /** Undefined for a decision made without a model call (or before outcomes recorded tokens). */
  usage: DecisionUsage | undefined;
}

/**
 * The decisions of a policy, from its outcomes (the policy's partition of the outcomes table, read
 * page by page): with `since` (ISO-8601 UTC), only those created at or after it.
 *
 * @throws what the reader throws (OutcomesTableError, MalformedOutcomeError).
 */
export async function* policyCostRecords(
  reader: Pick<OutcomesReader, "all">,
  policy: string,
  options: { since?: string } = {},
): AsyncGenerator<CostRecord> {
  const since = options.since;
  for await (const page of reader.all(policy)) {
    for (const outcome of page) {
      if (since !== undefined && outcome.created_at < since) continue;
      yield { policy: outcome.policy, usage: decisionUsageOf(outcome) };
    }
  }
}

/**
 * The decisions of a batch job, from its line items in the jobs table (each keeps what its
 * outcome's request cost); a dead-lettered line has none and counts as without usage. A line that
 * repeated an id shares the outcome of the line before it and is left out: each outcome counts once,
 * as in the manifest.
 *
 * @throws what the ledger throws reading the jobs table.
 */
export async function* jobCostRecords(
  ledger: Pick<JobLedger, "lines">,
  jobId: string,
): AsyncGenerator<CostRecord> {
  for await (const item of ledger.lines(jobId)) {
    if (item.duplicate !== true) yield { policy: item.policy, usage: item.usage };
  }
}
