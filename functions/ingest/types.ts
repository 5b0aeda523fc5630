/** Types of the ingest function. */

/**
 * Where to read (or resume reading) one S3 object: the handler's continuation input and output.
 * `line` is the 1-based number of the next line to read, `byteOffset` where it starts.
 */
export interface IngestCheckpoint {
  bucket: string;
  key: string;
  /** The object version read (a resumed read uses the same one). */
  versionId?: string;
  line: number;
  byteOffset: number;
}

/** A work-item message that could not be sent after retries. */
export interface FailedLine {
  line: number;
  id: string;
  /** SQS's error code for the entry, or the error's name. */
  code: string;
  message: string;
}

/** What one invocation did with one object. */
export interface ObjectIngestResult {
  bucket: string;
  key: string;
  versionId?: string;
  /** Lines read in this invocation (blank lines included). */
  linesRead: number;
  /** Messages sent to the work queue. */
  sent: number;
  /** Bad lines, each recorded as a `rejected` outcome. */
  rejected: number;
  /** Messages that could not be sent after retries. */
  failed: FailedLine[];
  /** Where to resume, when the object was not finished in this invocation. */
  next?: IngestCheckpoint;
}

/**
 * The ingest handler's result: per object what was done, and the checkpoints still to do. A Step
 * Functions loop (CDK) invokes the function again with each of `pending` until it is empty.
 */
export interface IngestResult {
  objects: ObjectIngestResult[];
  pending: IngestCheckpoint[];
}
