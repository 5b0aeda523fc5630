import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Clock } from "../common/Clock.js";
import type { RetryPolicy } from "../common/RetryPolicy.js";
import { JobLedger } from "./JobLedger.js";

/** What {@link jobLedgerOf} builds a ledger from: a function's configuration and its clients. */
export interface JobLedgerWiring {
  /** `JOBS_TABLE`: "" or unset means the function keeps no jobs. */
  jobsTable?: string | undefined;
  /** `OUTCOMES_TABLE`: written in the same transaction as a line's count. */
  outcomesTable: string;
  client: DynamoDBDocumentClient;
  retry: RetryPolicy;
  /** Default: the system clock. */
  clock?: Clock | undefined;
  /** See `JobLedgerOptions.onEnded`. Default none (on AWS the jobs table's stream starts the writer). */
  onEnded?: ((jobId: string) => Promise<void>) | undefined;
}

/**
 * The job ledger of a function that counts jobs (decide, ingest), or undefined when its
 * `JOBS_TABLE` is empty: one place for the rule "no jobs table, no jobs".
 */
export function jobLedgerOf(wiring: JobLedgerWiring): JobLedger | undefined {
  const jobsTable = wiring.jobsTable ?? "";
  if (jobsTable === "") return undefined;
  return new JobLedger({
    client: wiring.client,
    jobsTable,
    outcomesTable: wiring.outcomesTable,
    retry: wiring.retry,
    ...(wiring.clock ? { clock: wiring.clock } : {}),
    ...(wiring.onEnded ? { onEnded: wiring.onEnded } : {}),
  });
}
