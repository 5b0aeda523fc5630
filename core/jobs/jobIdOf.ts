import { createHash } from "node:crypto";

/** What identifies an object version for a job. */
export interface JobObject {
  bucket: string;
  key: string;
  /** The object's version; absent in a bucket without versioning. */
  versionId?: string;
  /** The object's ETag: stands in for the version in a bucket without versioning. */
  etag?: string;
}

/**
 * The job id of an object version: `job-` and 32 hex digits of SHA-256 over bucket, key and version
 * (`JOB_ID_PATTERN`). Without a version (a bucket without versioning) the ETag stands in for it, so
 * uploading the same bytes again is the same job and a changed object a new one.
 */
export function jobIdOf(object: JobObject): string {
  const version = object.versionId !== undefined ? `v:${object.versionId}` : `e:${object.etag ?? ""}`;
  const digest = createHash("sha256").update(`${object.bucket}\n${object.key}\n${version}\n`).digest("hex");
  return `job-${digest.slice(0, 32)}`;
}
