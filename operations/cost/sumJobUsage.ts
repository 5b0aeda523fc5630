import type { JobUsage } from "../../contract/index.js";
import { type JobLedger, UsageTally } from "../../core/jobs/index.js";
import { jobCostRecords } from "./readCostRecords.js";

/**
 * A job's tokens and endpoint time so far, summed over its ended lines as its manifest sums them
 * (each line's share of its request), read from the jobs table page by page.
 *
 * @throws what the ledger throws reading the jobs table.
 */
export async function sumJobUsage(ledger: Pick<JobLedger, "lines">, jobId: string): Promise<JobUsage> {
  const tally = new UsageTally();
  for await (const record of jobCostRecords(ledger, jobId)) tally.add(record.usage);
  return tally.total();
}
