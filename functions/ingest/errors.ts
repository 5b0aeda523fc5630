import { PermanentError, PipelineError } from "../../core/common/errors.js";
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

/**
 * The object changed while it was being ingested: a bucket without versioning holds a new object
 * under the key, whose ETag is not the one of the job's first read (S3 answered a resumed read's
 * `If-Match` with 412 PreconditionFailed, or sent another ETag). Nothing of the new object is read
 * into the job; the lines before `checkpoint` were read from the first one and stand.
 */
export class ObjectChangedError extends PermanentError {
  override name = "ObjectChangedError";
  constructor(
    /** Where the read stopped: the first line not read. */
    readonly checkpoint: IngestCheckpoint,
    /** The ETag the job was bound to (its first read's). */
    readonly expectedEtag: string,
    /** The ETag S3 sent now, when it sent one (a 412 sends none). */
    readonly currentEtag: string | undefined,
    options?: ErrorOptions,
  ) {
    const now = currentEtag === undefined ? "" : `, ${currentEtag} now`;
    super(
      `s3://${checkpoint.bucket}/${checkpoint.key} changed while it was being ingested (ETag ${expectedEtag} at the first read${now}): the lines before line ${checkpoint.line} were ingested from the object first read, the rest of it can no longer be read and nothing of the new object was mixed in. The new object is a job of its own; to ingest the rest of the first one, upload it again under a new key`,
      options,
    );
  }
}
