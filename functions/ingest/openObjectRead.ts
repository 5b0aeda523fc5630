import type { Readable } from "node:stream";
import type { GetObjectCommandOutput } from "@aws-sdk/client-s3";
import { ObjectChangedError } from "./errors.js";
import { farDeadline } from "./farDeadline.js";
import { getObjectVersion } from "./getObjectVersion.js";
import type { IngestDeps } from "./IngestDeps.js";
import { refuseChangedObject } from "./refuseChangedObject.js";
import type { IngestCheckpoint, IngestedObject, ObjectIngestResult } from "./types.js";

/** An object version open for reading from a checkpoint. */
export interface OpenObjectRead {
  /** The version every read of this object is bound to. */
  object: IngestedObject;
  /** The object's bytes from the checkpoint on; the caller destroys it. */
  body: Readable;
  /** The job the object version is, with a jobs table. */
  jobId?: string;
  /** The result so far: nothing read yet. */
  result: ObjectIngestResult;
}

/**
 * The first step of `ingestObject`: GetObject from the checkpoint ({@link getObjectVersion}), the
 * version the read is bound to (its version id, or without versioning the first read's ETag), and
 * with a jobs table the object's job (started on the first read).
 *
 * Returns `{ ended }` when there is nothing to read: the object changed under its key
 * ({@link refuseChangedObject}), the checkpoint is at the object's very end (the job is then marked
 * read), this version was read to its end before (`alreadyIngested`), or the object has no body.
 *
 * @throws whatever GetObject throws but `PreconditionFailed`, and an `InvalidRange` that is not
 *   at the end of a resumed read.
 */
export async function openObjectRead(
  start: IngestCheckpoint,
  deps: IngestDeps,
): Promise<{ ended: ObjectIngestResult } | { read: OpenObjectRead }> {
  let output: GetObjectCommandOutput;
  try {
    output = await getObjectVersion(deps.s3, start);
  } catch (error) {
    if (error instanceof ObjectChangedError) return { ended: await refuseChangedObject(start, error, deps) };
    // A checkpoint at the very end of the object (it stopped on its last line): nothing is left.
    // (A changed object is answered 412 first: preconditions come before the range.)
    if (start.byteOffset > 0 && (error as { name?: unknown }).name === "InvalidRange") {
      return { ended: await endAtObjectEnd(start, deps) };
    }
    throw error;
  }
  const object = boundVersion(start, output);
  const result: ObjectIngestResult = { ...object, linesRead: 0, sent: 0, rejected: 0, failed: [] };
  const body = output.Body as Readable | undefined;
  let jobId = start.jobId;
  if (deps.jobs !== undefined && jobId === undefined) {
    const { job } = await deps.jobs.start(object, { deadline: farDeadline(deps.clock) });
    jobId = job.job_id;
    if (job.status !== "reading") {
      // This version was read to its end before: its lines are sent or recorded, its job counts them.
      body?.destroy();
      deps.logger.info("object version already ingested; nothing read", {
        ...object,
        jobId,
        status: job.status,
      });
      return { ended: { ...result, jobId, alreadyIngested: true } };
    }
  }
  if (jobId !== undefined) result.jobId = jobId;
  if (body === undefined) return { ended: result };
  return { read: { object, body, ...(jobId !== undefined ? { jobId } : {}), result } };
}

/** The version a read is bound to: the checkpoint's, or the one GetObject answered. */
function boundVersion(start: IngestCheckpoint, output: GetObjectCommandOutput): IngestedObject {
  const versionId =
    start.versionId ?? (output.VersionId && output.VersionId !== "null" ? output.VersionId : undefined);
  // Without versioning, the first read's ETag stands for the version: every later read is bound to it.
  const etag = versionId === undefined ? (start.etag ?? output.ETag) : undefined;
  return {
    bucket: start.bucket,
    key: start.key,
    ...(versionId !== undefined ? { versionId } : {}),
    ...(etag !== undefined ? { etag } : {}),
  };
}

/** The checkpoint was at the object's end: nothing read; the job, if any, learns its line count. */
async function endAtObjectEnd(start: IngestCheckpoint, deps: IngestDeps): Promise<ObjectIngestResult> {
  const { bucket, key, versionId, etag, jobId } = start;
  if (deps.jobs !== undefined && jobId !== undefined) {
    await deps.jobs.markRead(jobId, start.jobLines ?? 0, {
      deadline: farDeadline(deps.clock),
      lastLine: start.line - 1,
    });
  }
  return {
    ...(jobId !== undefined ? { jobId } : {}),
    bucket,
    key,
    ...(versionId ? { versionId } : {}),
    ...(etag ? { etag } : {}),
    linesRead: 0,
    sent: 0,
    rejected: 0,
    failed: [],
  };
}
