import { PipelineError } from "../common/errors.js";

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
