import { PipelineError } from "../common/errors.js";
import type { IngestCheckpoint } from "./types.js";

/**
 * A line could not be ended for good: its `rejected` outcome was refused by the outcomes table for
 * a reason retrying will not fix (a missing table, access denied). The lines before it were sent
 * or recorded; `checkpoint` is where to resume once the table is fixed (invoke the ingest function
 * with it as its input).
 */
export class IngestLineError extends PipelineError {
  override name = "IngestLineError";
  constructor(
    /** Where to resume: the line that could not be recorded. */
    readonly checkpoint: IngestCheckpoint,
    options: { cause: unknown },
  ) {
    const cause = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(
      `s3://${checkpoint.bucket}/${checkpoint.key} line ${checkpoint.line}: its rejected outcome could not be written (${cause}); fix the table or its permissions, then invoke the ingest function with ${JSON.stringify(checkpoint)} to resume there`,
      options,
    );
  }
}
