/** Types of the ingest function. */

/**
 * The object version a read is bound to: its bucket and key, and its version id or, in a bucket
 * without versioning, the first read's ETag.
 */
export interface IngestedObject {
  bucket: string;
  key: string;
  versionId?: string;
  etag?: string;
}

/**
 * Where to read (or resume reading) one S3 object: the handler's continuation input and output.
 * `line` is the 1-based number of the next line to read, `byteOffset` where it starts.
 */
export interface IngestCheckpoint {
  bucket: string;
  key: string;
  /** The object version read (a resumed read names the same one). */
  versionId?: string;
  /**
   * The object's ETag at the first read, kept when the bucket has no versioning (no `versionId`):
   * a resumed read sends it as `If-Match` and compares it with the ETag it gets, so a job never
   * reads two versions of one key (see `ObjectChangedError`).
   */
  etag?: string;
  line: number;
  byteOffset: number;
  /** The object's job, once ingest created it (a resumed read counts toward the same job). */
  jobId?: string;
  /** Non-blank lines before `line`: the job's lines read so far. */
  jobLines?: number;
}

/** A work-item message that could not be sent (or a bad line whose outcome could not be written). */
export interface FailedLine {
  line: number;
  id: string;
  /** SQS's error code for the entry, or the error's name. */
  code: string;
  message: string;
  /**
   * True when SQS refused the entry for good (`SenderFault`, e.g. `InvalidMessageContents` for a
   * U+FFFF): the line then ends as a `rejected` outcome. False: it failed for now, and the
   * invocation stops at a checkpoint before it, so that it is sent again.
   */
  permanent: boolean;
}

/** What one invocation did with one object. */
export interface ObjectIngestResult {
  bucket: string;
  key: string;
  versionId?: string;
  /** The ETag of the job's first read, when the bucket has no versioning. */
  etag?: string;
  /** Lines read in this invocation (blank lines included). */
  linesRead: number;
  /** Messages sent to the work queue. */
  sent: number;
  /** Bad lines and lines the work queue refused for good, each recorded as a `rejected` outcome. */
  rejected: number;
  /**
   * Lines neither sent nor recorded in this invocation (a send or an outcome write that kept
   * failing for now): they are read again from `next`, which is set whenever this is not empty.
   */
  failed: FailedLine[];
  /** Where to resume, when the object was not finished in this invocation. */
  next?: IngestCheckpoint;
  /** The object version's job (set when the function has a jobs table). */
  jobId?: string;
  /**
   * Set when the object version's job had been read to its end before (the same version ingested
   * again): nothing was read or sent, and no second job or outcome was made.
   */
  alreadyIngested?: true;
  /**
   * Set when the object changed under a bucket without versioning while it was being ingested
   * (its ETag is not the one of the first read): nothing more was read, and the job (when there is
   * one) is `failed` with this reason. The lines read before it stand.
   */
  objectChanged?: string;
}

/**
 * The ingest handler's result: per object what was done, and the checkpoints still to do. A Step
 * Functions loop (CDK) invokes the function again with each of `pending` until it is empty.
 */
export interface IngestResult {
  objects: ObjectIngestResult[];
  pending: IngestCheckpoint[];
}
