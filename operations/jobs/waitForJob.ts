import { isFinalJobStatus, type Job } from "../../contract/index.js";
import type { JobsReader } from "../../core/jobs/JobsReader.js";

/** Options of {@link waitForJob}. */
export interface WaitForJobOptions {
  reader: JobsReader;
  jobId: string;
  /** How long to wait in all. Default: no limit. */
  timeoutMs?: number;
  /** Between reads of the job record. Default 1000 ms. */
  intervalMs?: number;
  /** Told the job after each read (its counts move as lines end). */
  onProgress?: (job: Job) => void;
  /** Stops the wait (Ctrl-C); the last job read is returned with `timedOut: false`. */
  signal?: AbortSignal;
  /** Default: `performance.now` and `setTimeout`. */
  clock?: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
}

/** How a wait ended. */
export interface WaitForJobResult {
  /** The job as last read. */
  job: Job;
  /** True when the timeout passed before the job reached a final status. */
  timedOut: boolean;
}

const defaultClock = {
  now: () => performance.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    }),
};

/**
 * Reads the job record until it reaches a final status (`complete`, `complete_with_errors`,
 * `failed`), the timeout passes or the signal aborts. A client-side wait, as the AWS CLI's
 * `wait` commands do: one consistent GetItem per interval, nothing on the pipeline's side.
 *
 * @throws JobNotFoundError when the job does not exist (at the first read); JobsTableError.
 */
export async function waitForJob(options: WaitForJobOptions): Promise<WaitForJobResult> {
  const clock = options.clock ?? defaultClock;
  const interval = options.intervalMs ?? 1000;
  const started = clock.now();
  for (;;) {
    const job = await options.reader.get(options.jobId);
    options.onProgress?.(job);
    if (isFinalJobStatus(job.status) || options.signal?.aborted) return { job, timedOut: false };
    const left = options.timeoutMs === undefined ? interval : options.timeoutMs - (clock.now() - started);
    if (left <= 0) return { job, timedOut: true };
    await clock.sleep(Math.min(interval, left), options.signal);
  }
}
