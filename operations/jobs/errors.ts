import { OperationError } from "../common/errors.js";

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
