import type { Readable } from "node:stream";
import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from "@aws-sdk/client-s3";
import { ObjectChangedError } from "./errors.js";
import type { IngestCheckpoint } from "./types.js";

/**
 * GetObject of the one object version a job reads, from the checkpoint's byte offset (a ranged
 * read when it is past 0). The read names the version: `VersionId` when the checkpoint has one (a
 * versioned bucket: that version's bytes whatever was put since), else `IfMatch` with the ETag of
 * the job's first read (a bucket without versioning). The ETag S3 sends back is compared with that
 * ETag too, so a store that ignores `If-Match` cannot mix two objects into one job either.
 *
 * @throws ObjectChangedError when the object under the key is no longer the one first read (412
 *   PreconditionFailed, or another ETag); the response's body is discarded.
 * @throws whatever else GetObject throws (`InvalidRange` for an offset at the object's end).
 */
export async function getObjectVersion(
  s3: S3Client,
  start: IngestCheckpoint,
): Promise<GetObjectCommandOutput> {
  const bound = start.versionId === undefined ? start.etag : undefined;
  let output: GetObjectCommandOutput;
  try {
    output = await s3.send(
      new GetObjectCommand({
        Bucket: start.bucket,
        Key: start.key,
        ...(start.versionId !== undefined ? { VersionId: start.versionId } : {}),
        ...(bound !== undefined ? { IfMatch: quotedEtag(bound) } : {}),
        ...(start.byteOffset > 0 ? { Range: `bytes=${start.byteOffset}-` } : {}),
      }),
    );
  } catch (error) {
    if (bound !== undefined && isPreconditionFailed(error)) {
      throw new ObjectChangedError(start, quotedEtag(bound), undefined, { cause: error });
    }
    throw error;
  }
  if (bound !== undefined && output.ETag !== undefined && !sameEtag(output.ETag, bound)) {
    (output.Body as Readable | undefined)?.destroy();
    throw new ObjectChangedError(start, quotedEtag(bound), quotedEtag(output.ETag));
  }
  return output;
}

/** An ETag as S3 sends it in headers: in double quotes (an S3 notification's `eTag` has none). */
export function quotedEtag(etag: string): string {
  return etag.startsWith('"') ? etag : `"${etag}"`;
}

function sameEtag(a: string, b: string): boolean {
  return quotedEtag(a) === quotedEtag(b);
}

function isPreconditionFailed(error: unknown): boolean {
  const fields = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  return fields.name === "PreconditionFailed" || fields.$metadata?.httpStatusCode === 412;
}
