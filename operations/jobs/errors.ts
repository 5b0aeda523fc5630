import { tableErrorHint } from "../../functions/common/tableErrorHint.js";
import { OperationError } from "../common/errors.js";

/** The jobs table holds no job of this id. */
export class JobNotFoundError extends OperationError {
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
export class JobsTableError extends OperationError {
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
export class MalformedJobError extends OperationError {
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

/** The job's results are not written yet (it has not completed), or it failed without results. */
export class JobResultsNotReadyError extends OperationError {
  override name = "JobResultsNotReadyError";
  constructor(
    readonly jobId: string,
    readonly status: string,
  ) {
    super(
      status === "failed"
        ? `job ${jobId} failed before its results were written: \`decisions jobs show ${jobId}\` says why`
        : `job ${jobId} is ${status}: its results are written once every line has ended; \`decisions jobs wait ${jobId}\` follows it there`,
    );
  }
}

/** The results object named by the job could not be read. */
export class JobResultsReadError extends OperationError {
  override name = "JobResultsReadError";
  constructor(
    readonly uri: string,
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(
      errorName === "NoSuchKey" || errorName === "NoSuchBucket"
        ? `${uri} does not exist (${errorName}): is --s3-endpoint-url the stack's s3_endpoint?`
        : `${uri} could not be read: ${errorName}: ${(options?.cause as Error | undefined)?.message ?? ""}`,
      options,
    );
  }
}
