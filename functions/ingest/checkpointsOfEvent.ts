import { z } from "zod";
import { PermanentError } from "../../core/common/errors.js";
import type { IngestCheckpoint } from "./types.js";

const Checkpoint = z.object({
  bucket: z.string().min(1),
  key: z.string().min(1),
  versionId: z.string().optional(),
  etag: z.string().min(1).optional(),
  line: z.number().int().min(1),
  byteOffset: z.number().int().min(0),
  jobId: z.string().min(1).optional(),
  jobLines: z.number().int().min(0).optional(),
});

const S3Notification = z.object({
  Records: z.array(
    z.object({
      s3: z.object({
        bucket: z.object({ name: z.string() }),
        object: z.object({ key: z.string(), versionId: z.string().optional() }),
      }),
    }),
  ),
});

const EventBridgeObjectCreated = z.object({
  source: z.literal("aws.s3"),
  "detail-type": z.literal("Object Created"),
  detail: z.object({
    bucket: z.object({ name: z.string() }),
    object: z.object({ key: z.string(), "version-id": z.string().optional() }),
  }),
});

const Continuation = z.object({ pending: z.array(Checkpoint) });

/** The ingest function was invoked with an input it does not know. */
export class UnknownIngestInputError extends PermanentError {
  override name = "UnknownIngestInputError";
}

/**
 * The objects (and where to start in each) an ingest invocation is asked to read. Accepted inputs:
 *
 * - an S3 event notification (`Records[].s3`; keys are URL-encoded there, `+` for spaces);
 * - an EventBridge "Object Created" event from `aws.s3` (keys as written);
 * - a checkpoint `{bucket, key, versionId?, etag?, line, byteOffset, jobId?, jobLines?}`;
 * - a previous {@link IngestResult} (`{pending: [checkpoint, …]}`), so a Step Functions loop can
 *   feed each result back until `pending` is empty.
 *
 * @throws UnknownIngestInputError for anything else.
 */
export function checkpointsOfEvent(event: unknown): IngestCheckpoint[] {
  const notification = S3Notification.safeParse(event);
  if (notification.success) {
    return notification.data.Records.map(({ s3 }) => ({
      bucket: s3.bucket.name,
      key: decodeURIComponent(s3.object.key.replaceAll("+", " ")),
      ...(s3.object.versionId ? { versionId: s3.object.versionId } : {}),
      line: 1,
      byteOffset: 0,
    }));
  }
  const created = EventBridgeObjectCreated.safeParse(event);
  if (created.success) {
    const { bucket, object } = created.data.detail;
    const versionId = object["version-id"];
    return [
      { bucket: bucket.name, key: object.key, ...(versionId ? { versionId } : {}), line: 1, byteOffset: 0 },
    ];
  }
  const continuation = Continuation.safeParse(event);
  if (continuation.success) return continuation.data.pending.map(stripUndefined);
  const checkpoint = Checkpoint.safeParse(event);
  if (checkpoint.success) return [stripUndefined(checkpoint.data)];
  throw new UnknownIngestInputError(
    "the ingest function takes an S3 event notification, an EventBridge Object Created event, a checkpoint or a previous result",
  );
}

function stripUndefined(checkpoint: z.infer<typeof Checkpoint>): IngestCheckpoint {
  const { versionId, etag, jobId, jobLines, ...rest } = checkpoint;
  return {
    ...rest,
    ...(versionId !== undefined ? { versionId } : {}),
    ...(etag !== undefined ? { etag } : {}),
    ...(jobId !== undefined ? { jobId } : {}),
    ...(jobLines !== undefined ? { jobLines } : {}),
  };
}
