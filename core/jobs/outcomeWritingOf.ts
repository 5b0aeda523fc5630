import { OutcomeStore } from "../outcomes/OutcomeStore.js";
import type { JobLedger } from "./JobLedger.js";
import { type JobLedgerWiring, jobLedgerOf } from "./jobLedgerOf.js";

/** How a function that writes outcomes writes them: the outcome store and, with a jobs table, the job ledger. */
export interface OutcomeWriting {
  /** The outcomes table's store; with a ledger, a job line's outcome goes in the ledger's transaction. */
  readonly outcomes: OutcomeStore;
  /** The job ledger, or undefined when `JOBS_TABLE` is empty (the function keeps no jobs). */
  readonly jobs: JobLedger | undefined;
}

/**
 * The one wiring of the outcome store and the job ledger that the functions writing outcomes
 * (decide, ingest) share: one document client and retry policy for both tables, the ledger only
 * with a jobs table (see {@link jobLedgerOf}), and the store counting a job line's outcome through it.
 */
export function outcomeWritingOf(wiring: JobLedgerWiring): OutcomeWriting {
  const jobs = jobLedgerOf(wiring);
  const outcomes = new OutcomeStore({
    client: wiring.client,
    tableName: wiring.outcomesTable,
    retry: wiring.retry,
    ...(jobs ? { jobs } : {}),
  });
  return { outcomes, jobs };
}
