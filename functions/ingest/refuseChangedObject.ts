import type { ObjectChangedError } from "./errors.js";
import { farDeadline } from "./farDeadline.js";
import type { IngestDeps } from "./IngestDeps.js";
import type { IngestCheckpoint, ObjectIngestResult } from "./types.js";

/**
 * The object changed under its key while a job read it (see {@link ObjectChangedError}): nothing
 * more is read, and the job ends `failed` with the reason, its lines being those read so far.
 */
export async function refuseChangedObject(
  start: IngestCheckpoint,
  error: ObjectChangedError,
  deps: Pick<IngestDeps, "logger" | "jobs" | "clock">,
): Promise<ObjectIngestResult> {
  const { bucket, key, versionId, etag, jobId } = start;
  deps.logger.error("the object changed while it was being ingested; reading no more of it", {
    bucket,
    key,
    line: start.line,
    expectedEtag: error.expectedEtag,
    currentEtag: error.currentEtag,
    ...(jobId !== undefined ? { jobId } : {}),
  });
  if (deps.jobs !== undefined && jobId !== undefined) {
    await deps.jobs.failReading(jobId, start.jobLines ?? 0, error.message, {
      deadline: farDeadline(deps.clock),
    });
  }
  return {
    ...(jobId !== undefined ? { jobId } : {}),
    bucket,
    key,
    ...(versionId !== undefined ? { versionId } : {}),
    ...(etag !== undefined ? { etag } : {}),
    linesRead: 0,
    sent: 0,
    rejected: 0,
    failed: [],
    objectChanged: error.message,
  };
}
