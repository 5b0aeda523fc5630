import type { Job } from "../../contract/jobs/JobSchema.js";
import type { Clock } from "../../core/common/Clock.js";
import { Deadline } from "../../core/common/Deadline.js";
import { endCheckOutstanding } from "../../core/jobs/endCheckOutstanding.js";
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

/** What one check found and did: the tally, and the jobs whose end it found and set. */
export interface JobsCheck extends JobsTally {
  /**
   * Jobs `deciding` whose lines had all ended while `ended_at` was unset — the writer of the last
   * line stopped between its count and its end check — whose end this check set
   * (`JobLedger.checkEnded`), which starts their results writer.
   */
  ended: string[];
}

/** How long the end check of one job may take (a Query and a conditional update, retried). */
const END_CHECK_MS = 10_000;

/**
 * The jobs monitor's check: the jobs created in the last `lookbackDays` that are not final, read
 * from the `by-created` index (job records only, the status projected, so the final ones are
 * filtered out before anything else is read), then each read in full from its record
 * (strongly consistent) and tallied ({@link tallyJobs}).
 *
 * A job `deciding` whose counters show every line ended but whose `ended_at` is unset gets its end
 * check run here ({@link JobsCheck.ended}): the check that ends a job is made after each line's
 * count, and a writer that stops between the two (a crash, a timeout) leaves it to a redelivery
 * of its message — which may never come (its last receive went to the dead-letter queue, which
 * may be purged). So a job ends without a person at most one check after its last line.
 */
export class JobsMonitor {
  readonly #options: JobsMonitorOptions;

  constructor(options: JobsMonitorOptions) {
    this.#options = options;
  }

  /** @throws TransientOutcomeStoreError / OutcomeStoreError as the jobs table's reads do. */
  async check(): Promise<JobsCheck> {
    const { ledger, clock } = this.#options;
    const ids = await ledger.reader.openSince(
      new Date(clock.now() - this.#options.lookbackDays * 86_400_000).toISOString(),
    );
    const jobs: Job[] = [];
    const ended: string[] = [];
    for (const id of ids) {
      let job = await ledger.get(id);
      if (job !== undefined && endCheckOutstanding(job)) {
        await ledger.checkEnded(id, { deadline: new Deadline(Date.now() + END_CHECK_MS) });
        job = await ledger.get(id);
        if (job?.ended_at !== undefined) ended.push(id);
      }
      if (job !== undefined) jobs.push(job);
    }
    return { ...tallyJobs(jobs, clock.now(), this.#options.stallMinutes), ended };
  }
}
