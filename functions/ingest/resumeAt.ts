import type { IngestCheckpoint, IngestedObject } from "./types.js";

/** A place in the object between two lines: the next line, its byte offset and the job's line count so far. */
export interface ReadPosition {
  line: number;
  byteOffset: number;
  jobId?: string;
  /** The job's lines before this place (blank lines not counted). */
  jobLines: number;
}

/** The checkpoint to resume from; the job's line count travels only with a job. */
export function resumeAt(object: IngestedObject, at: ReadPosition): IngestCheckpoint {
  const { jobLines, ...rest } = at;
  return { ...object, ...rest, ...(at.jobId !== undefined ? { jobLines } : {}) };
}
