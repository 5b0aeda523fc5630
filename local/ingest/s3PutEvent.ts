import type { S3Event } from "aws-lambda";

/** The object an S3 notification is about. */
export interface S3PutObject {
  bucket: string;
  key: string;
  size: number;
  eTag?: string;
  versionId?: string;
  region: string;
}

/**
 * An `ObjectCreated:Put` notification as S3 delivers it to Lambda: one record, the key
 * URL-encoded the way S3 encodes it (`+` for spaces), the bucket's ARN, a sequencer.
 */
export function s3PutEvent(object: S3PutObject, now = new Date()): S3Event {
  return {
    Records: [
      {
        eventVersion: "2.1",
        eventSource: "aws:s3",
        awsRegion: object.region,
        eventTime: now.toISOString(),
        eventName: "ObjectCreated:Put",
        userIdentity: { principalId: "local" },
        requestParameters: { sourceIPAddress: "127.0.0.1" },
        responseElements: { "x-amz-request-id": "local", "x-amz-id-2": "local" },
        s3: {
          s3SchemaVersion: "1.0",
          configurationId: "ingest-jsonl",
          bucket: {
            name: object.bucket,
            ownerIdentity: { principalId: "local" },
            arn: `arn:aws:s3:::${object.bucket}`,
          },
          object: {
            key: encodeURIComponent(object.key).replaceAll("%20", "+").replaceAll("%2F", "/"),
            size: object.size,
            eTag: object.eTag ?? "",
            ...(object.versionId === undefined ? {} : { versionId: object.versionId }),
            sequencer: now.getTime().toString(16).toUpperCase(),
          },
        },
      },
    ],
  };
}
