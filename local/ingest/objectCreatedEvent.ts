import { randomUUID } from "node:crypto";
import type { CreatedObject } from "./readObjectCreated.js";

/** An S3 "Object Created" event as EventBridge delivers it to a rule's target. */
export interface ObjectCreatedEvent {
  version: "0";
  id: string;
  "detail-type": "Object Created";
  source: "aws.s3";
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: {
    version: "0";
    bucket: { name: string };
    object: { key: string; size?: number; etag?: string; "version-id"?: string; sequencer: string };
    "request-id": string;
    requester: string;
    "source-ip-address": string;
    reason: CreatedObject["reason"];
  };
}

/**
 * The EventBridge event S3 sends for a created object (bucket with EventBridge notifications on):
 * account 000000000000, the bucket's ARN in `resources`, the key as written (EventBridge does not
 * URL-encode it, unlike S3's own notifications), a sequencer that grows with time.
 */
export function objectCreatedEvent(object: CreatedObject, region: string): ObjectCreatedEvent {
  return {
    version: "0",
    id: randomUUID(),
    "detail-type": "Object Created",
    source: "aws.s3",
    account: "000000000000",
    time: object.time.toISOString(),
    region,
    resources: [`arn:aws:s3:::${object.bucket}`],
    detail: {
      version: "0",
      bucket: { name: object.bucket },
      object: {
        key: object.key,
        ...(object.size === undefined ? {} : { size: object.size }),
        ...(object.eTag === undefined ? {} : { etag: object.eTag }),
        sequencer: object.time.getTime().toString(16).toUpperCase().padStart(18, "0"),
      },
      "request-id": "local",
      requester: "000000000000",
      "source-ip-address": "127.0.0.1",
      reason: object.reason,
    },
  };
}
