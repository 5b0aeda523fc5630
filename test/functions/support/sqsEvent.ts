/** SQS events as Lambda's event source mapping delivers them, for invoking the handler directly. */
import { createHash, randomUUID } from "node:crypto";
import type { SQSEvent, SQSRecord } from "aws-lambda";

/** One record per body, fresh message ids, `ApproximateReceiveCount` as given (default 1). */
export function sqsEvent(bodies: readonly string[], receiveCount = 1): SQSEvent {
  return { Records: bodies.map((body) => sqsRecord(body, receiveCount)) };
}

/** A record with this body. */
export function sqsRecord(body: string, receiveCount = 1, messageId: string = randomUUID()): SQSRecord {
  return {
    messageId,
    receiptHandle: `handle-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: String(Date.now()),
      SenderId: "AIDAEXAMPLE",
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: createHash("md5").update(body).digest("hex"),
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:work",
    awsRegion: "us-east-1",
  };
}

/** The same event delivered again (the same message ids), receive count raised. */
export function redelivered(event: SQSEvent): SQSEvent {
  return {
    Records: event.Records.map((record) => ({
      ...record,
      attributes: {
        ...record.attributes,
        ApproximateReceiveCount: String(Number(record.attributes.ApproximateReceiveCount) + 1),
      },
    })),
  };
}
