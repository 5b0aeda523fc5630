import type { SQSRecord } from "aws-lambda";
import { SUPERSEDE_ATTRIBUTE } from "../../contract/outcome/outcomeRecordSchemas.js";
import { stripByteOrderMark } from "../../core/common/stripByteOrderMark.js";
import { readRequeueLineage } from "../../core/flow/requeueAttributes.js";
import { readJobAttributes } from "../../core/jobs/readJobAttributes.js";
import type { WorkItemInput } from "../../core/pipeline/index.js";

/**
 * Reads one SQS record into the pipeline core's input: its body as it arrived (less a leading
 * UTF-8 byte order mark, which a producer on Windows may write and JSON forbids: every input path
 * strips it the same way, see `stripByteOrderMark`), and where it came from (the message id, `ApproximateReceiveCount` — 1 when absent or unreadable — and
 * `SentTimestamp` when present; for a copy re-queued for capacity, the first message's id and send
 * time from its lineage attributes; the supersede marker when it carries one). Never throws: the body is read by the core (`parseWorkItem`).
 */
export function parseRecord(record: SQSRecord): WorkItemInput {
  const receiveCount = Number.parseInt(record.attributes?.ApproximateReceiveCount ?? "1", 10);
  // A copy re-queued for capacity stands for the message its item first arrived in (core/flow).
  const lineage = readRequeueLineage(record.messageAttributes);
  // Set by `decisions outcomes redecide` and `decisions submit --supersede` (kept by re-queued copies).
  const supersede = record.messageAttributes?.[SUPERSEDE_ATTRIBUTE]?.stringValue;
  const sentAt = lineage.firstSentMs ?? Number.parseInt(record.attributes?.SentTimestamp ?? "", 10);
  const job = readJobAttributes(record.messageAttributes);
  return {
    body: stripByteOrderMark(record.body),
    origin: {
      kind: "sqs",
      messageId: lineage.firstMessageId ?? record.messageId,
      receiveCount: Number.isFinite(receiveCount) ? receiveCount : 1,
      ...(Number.isFinite(sentAt) ? { sentAt } : {}),
      ...(supersede !== undefined && supersede !== "" ? { supersede } : {}),
      ...(job !== undefined ? { job } : {}),
    },
  };
}
