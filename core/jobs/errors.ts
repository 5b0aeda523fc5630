import { PipelineError } from "../common/errors.js";
import { tableErrorHint } from "../common/tableErrorHint.js";

/** The jobs table's line items of a job do not match its line count: its results are not complete. */
export class JobResultsMismatchError extends PipelineError {
  override name = "JobResultsMismatchError";
  constructor(
    readonly jobId: string,
    reason: string,
  ) {
    super(`job ${jobId}: ${reason}`);
  }
}

/**
 * Base class of what a read of the jobs table ({@link JobsReader}) raises on purpose: each carries
 * its data as fields, and its message is written to be printed as it is (`decisions jobs`).
 */
export class JobsAccessError extends Error {
  override name = "JobsAccessError";
}

/** The jobs table holds no job of this id. */
export class JobNotFoundError extends JobsAccessError {
  override name = "JobNotFoundError";
  constructor(
    readonly tableName: string,
    readonly jobId: string,
  ) {
    super(
      `no job "${jobId}" in the jobs table ${tableName}: \`decisions jobs list\` lists the jobs (newest first) with their ids`,
    );
  }
}

/** The jobs table could not be read (missing table, no access, DynamoDB down). */
export class JobsTableError extends JobsAccessError {
  override name = "JobsTableError";
  constructor(
    readonly tableName: string,
    /** The SDK error's name or the Node error code. */
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    const detail = (options?.cause as Error | undefined)?.message ?? "";
    const hint = tableErrorHint(errorName, "jobs_table");
    super(
      `the jobs table ${tableName}: ${hint ?? errorName}${detail === "" ? "" : ` (${errorName}: ${detail})`}`,
      options,
    );
  }
}

/** A stored item does not have the job record's shape (written by something else, or damaged). */
export class MalformedJobError extends JobsAccessError {
  override name = "MalformedJobError";
  constructor(
    readonly tableName: string,
    readonly jobId: unknown,
    /** What does not match, `path: message` each. */
    readonly problems: readonly string[],
  ) {
    super(
      `the item of job ${JSON.stringify(jobId)} in ${tableName} is not a job record: ${problems.slice(0, 3).join("; ")}`,
    );
  }
}
