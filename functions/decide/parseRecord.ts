import type { SQSRecord } from "aws-lambda";
import type { WorkItemInput } from "../pipeline/index.js";

/**
 * Reads one SQS record into the pipeline core's input: its body as it arrived, and where it came
 * from (the message id, `ApproximateReceiveCount` — 1 when absent or unreadable — and
 * `SentTimestamp` when present). Never throws: the body is read by the core (`parseWorkItem`).
 */
export function parseRecord(record: SQSRecord): WorkItemInput {
  const receiveCount = Number.parseInt(record.attributes?.ApproximateReceiveCount ?? "1", 10);
  const sentAt = Number.parseInt(record.attributes?.SentTimestamp ?? "", 10);
  return {
    body: record.body,
    origin: {
      kind: "sqs",
      messageId: record.messageId,
      receiveCount: Number.isFinite(receiveCount) ? receiveCount : 1,
      ...(Number.isFinite(sentAt) ? { sentAt } : {}),
    },
  };
}
