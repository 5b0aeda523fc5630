import type { Message, MessageAttributeValue } from "@aws-sdk/client-sqs";
import type { SQSMessageAttribute, SQSRecord, SQSRecordAttributes } from "aws-lambda";

/** Where a record came from, as Lambda's SQS event names it. */
export interface SqsRecordSource {
  /** The queue's ARN (`eventSourceARN`). */
  queueArn: string;
  /** The queue's region (`awsRegion`). */
  region: string;
}

/**
 * A received SQS message as Lambda's SQS event source mapping hands it to a function: the message
 * system attributes under `attributes` (strings, as SQS returns them), message attributes with
 * camel-cased `stringValue`/`binaryValue` (binary as base64) and the list members Lambda always
 * includes, `md5OfBody`, `eventSource: "aws:sqs"`, `eventSourceARN` and `awsRegion`.
 */
export function toSqsRecord(message: Message, source: SqsRecordSource): SQSRecord {
  const system = message.Attributes ?? {};
  const attributes: SQSRecordAttributes = {
    ApproximateReceiveCount: system.ApproximateReceiveCount ?? "1",
    SentTimestamp: system.SentTimestamp ?? "",
    SenderId: system.SenderId ?? "",
    ApproximateFirstReceiveTimestamp: system.ApproximateFirstReceiveTimestamp ?? "",
  };
  for (const name of [
    "AWSTraceHeader",
    "SequenceNumber",
    "MessageGroupId",
    "MessageDeduplicationId",
  ] as const) {
    const value = system[name];
    if (value !== undefined) attributes[name] = value;
  }
  const record: SQSRecord = {
    messageId: required(message.MessageId, "MessageId"),
    receiptHandle: required(message.ReceiptHandle, "ReceiptHandle"),
    body: message.Body ?? "",
    attributes,
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        toRecordAttribute(value),
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? "",
    eventSource: "aws:sqs",
    eventSourceARN: source.queueArn,
    awsRegion: source.region,
  };
  if (message.MD5OfMessageAttributes !== undefined)
    record.md5OfMessageAttributes = message.MD5OfMessageAttributes;
  return record;
}

function toRecordAttribute(value: MessageAttributeValue): SQSMessageAttribute {
  const attribute: SQSMessageAttribute = {
    stringListValues: value.StringListValues ?? [],
    binaryListValues: (value.BinaryListValues ?? []).map((bytes) => Buffer.from(bytes).toString("base64")),
    dataType: value.DataType ?? "String",
  };
  if (value.StringValue !== undefined) attribute.stringValue = value.StringValue;
  if (value.BinaryValue !== undefined)
    attribute.binaryValue = Buffer.from(value.BinaryValue).toString("base64");
  return attribute;
}

function required(value: string | undefined, field: string): string {
  if (value === undefined) throw new TypeError(`a received SQS message has no ${field}`);
  return value;
}
