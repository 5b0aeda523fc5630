import type { Job } from "../../contract/jobs/JobSchema.js";
import type { Clock } from "../../core/common/Clock.js";
import type { JobLedger } from "../../core/jobs/JobLedger.js";
import { type JobsTally, tallyJobs } from "./tallyJobs.js";

/** Options of a {@link JobsMonitor}. */
export interface JobsMonitorOptions {
  /** Its reader lists the jobs in progress and reads each in full (the index leaves the counts out). */
  ledger: JobLedger;
  clock: Clock;
  /** `JOB_STALL_MINUTES`. */
  stallMinutes: number;
  /** `JOB_LOOKBACK_DAYS`: jobs created longer ago are not looked at. */
  lookbackDays: number;
}

/**
 * The jobs monitor's check: the jobs created in the last `lookbackDays` that are not final, read
 * from the `by-created` index (job records only, the status projected, so the final ones are
 * filtered out before anything else is read), then each read in full from its record
 * (strongly consistent) and tallied ({@link tallyJobs}).
 */
export class JobsMonitor {
  readonly #options: JobsMonitorOptions;

  constructor(options: JobsMonitorOptions) {
    this.#options = options;
  }

  /** @throws TransientOutcomeStoreError / OutcomeStoreError as the jobs table's reads do. */
  async check(): Promise<JobsTally> {
    const { ledger, clock } = this.#options;
    const now = clock.now();
    const ids = await ledger.reader.openSince(
      new Date(now - this.#options.lookbackDays * 86_400_000).toISOString(),
    );
    const jobs: Job[] = [];
    for (const id of ids) {
      const job = await ledger.get(id);
      if (job !== undefined) jobs.push(job);
    }
    return tallyJobs(jobs, now, this.#options.stallMinutes);
  }
}
