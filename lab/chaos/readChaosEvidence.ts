import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { isFailureRecordKey } from "../../contract/failures/FailureRecordSchema.js";
import type { Lane } from "../../contract/lanes/lanes.js";
import { isShadowRecordKey } from "../../contract/outcome/ShadowRecordSchema.js";
import { REQUEUE_ATTRIBUTES } from "../../core/flow/requeueAttributes.js";

/** A message found in the dead-letter queue. */
export interface DeadLetter {
  messageId: string;
  body: string;
  /** `ApproximateReceiveCount` as the DLQ reports it (the receives on the work queue carry over). */
  receiveCount: number;
  /** For a copy the decide function re-queued for capacity: the message its item first arrived in. */
  firstMessageId?: string;
  /** The lane whose DLQ held it. Default `interactive` (the stack's `dlqUrl`). */
  lane?: Lane;
}

/** Every outcome of the outcomes table (Scan, all pages, strongly consistent; failure records left out). */
export async function scanOutcomeRows(
  dynamodb: DynamoDBClient,
  table: string,
): Promise<Record<string, unknown>[]> {
  const documents = DynamoDBDocumentClient.from(dynamodb);
  const rows: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    // Failure and shadow records share the table under their own key prefixes: they are no outcomes.
    rows.push(
      ...(page.Items ?? []).filter(
        (item) => !isFailureRecordKey(item.policy) && !isShadowRecordKey(item.policy),
      ),
    );
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return rows;
}

/**
 * Every message in a lane's dead-letter queue (`lane`: the one `dlqUrl` is), tagged with the lane, each received once (with a visibility timeout long
 * enough that none comes back while reading). Empty receives twice in a row end the read.
 */
export async function readDeadLetters(
  sqs: SQSClient,
  dlqUrl: string,
  lane: Lane = "interactive",
): Promise<DeadLetter[]> {
  const letters = new Map<string, DeadLetter>();
  let empty = 0;
  while (empty < 2) {
    const answer = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlqUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 600,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ["ApproximateReceiveCount"],
        MessageAttributeNames: [REQUEUE_ATTRIBUTES.firstMessageId],
      }),
    );
    const received = answer.Messages ?? [];
    empty = received.length === 0 ? empty + 1 : 0;
    for (const message of received) {
      const messageId = message.MessageId ?? "";
      const firstMessageId = message.MessageAttributes?.[REQUEUE_ATTRIBUTES.firstMessageId]?.StringValue;
      letters.set(messageId, {
        messageId,
        body: message.Body ?? "",
        receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? 0),
        lane,
        ...(firstMessageId !== undefined ? { firstMessageId } : {}),
      });
    }
  }
  return [...letters.values()];
}
