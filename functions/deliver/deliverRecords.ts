import { ChangeMessageVisibilityCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSRecord } from "aws-lambda";
import type { DeliverySchedule } from "../../contract/delivery/deliverySchedule.js";
import {
  DeliveryDlq,
  deliveriesOf,
  failureOf,
  nextStepOf,
  type OutcomeStreamRecord,
  outcomeChangeOf,
  type ResolvedTarget,
  type SendPorts,
  sendDelivery,
} from "../../core/delivery/index.js";

/** The body a target's rule puts on its delivery queue: the target and the outcomes bus's event. */
export interface DeliveryMessage {
  /** `<policy>/<name>`. */
  target: string;
  /** The event the outcomes Pipe put on the bus (detail: the table's stream record). */
  event: { detail?: OutcomeStreamRecord };
}

/** What {@link deliverRecords} needs. */
export interface DeliverDeps extends Omit<SendPorts, "timeoutMs"> {
  sqs: Pick<SQSClient, "send">;
  /** Every target of the bundled policies, secrets resolved at cold start. */
  targets: ReadonlyMap<string, ResolvedTarget>;
  /** Each target's delivery DLQ URL. */
  dlqUrls: Readonly<Record<string, string>>;
  schedule: DeliverySchedule;
  random?: () => number;
  /** Told of what happened to each record, one line. Default: nothing. */
  log?: (line: string, fields: Record<string, unknown>) => void;
}

/**
 * One attempt per SQS receive of each record (the receive count is the attempt number): a 2xx or
 * an outcome change the target does not want ends it; a retryable answer hides the message for
 * the schedule's next wait (ChangeMessageVisibility) and reports it as a batch item failure, so
 * SQS delivers it again then; giving up (a refusal, or the schedule's last attempt) puts the
 * failure with its reason on the target's DLQ and ends it. A record that cannot be handled at all
 * (an unknown target, the DLQ refusing the failure) is a batch item failure, and the queue's own
 * redrive moves it to the same DLQ after the schedule's attempts and two more.
 */
export async function deliverRecords(
  records: readonly SQSRecord[],
  deps: DeliverDeps,
): Promise<SQSBatchResponse> {
  const failures: string[] = [];
  await Promise.all(
    records.map(async (record) => {
      try {
        if (!(await deliverRecord(record, deps))) failures.push(record.messageId);
      } catch (error) {
        deps.log?.("delivery record failed", { messageId: record.messageId, error: String(error) });
        failures.push(record.messageId);
      }
    }),
  );
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
}

/** True when the record is done with; false when SQS is to deliver it again. */
async function deliverRecord(record: SQSRecord, deps: DeliverDeps): Promise<boolean> {
  const message = JSON.parse(record.body) as DeliveryMessage;
  const target = deps.targets.get(message.target);
  const dlqUrl = deps.dlqUrls[message.target];
  if (target === undefined || dlqUrl === undefined)
    throw new Error(`no delivery target ${message.target} in the bundled policies and DELIVERY_DLQ_URLS`);
  const change = outcomeChangeOf(message.event.detail ?? {});
  const delivery = change === undefined ? undefined : deliveriesOf(change, [target])[0];
  if (delivery === undefined) return true;
  const attempt = Number(record.attributes.ApproximateReceiveCount) || 1;
  const result = await sendDelivery(delivery, { ...deps, timeoutMs: deps.schedule.attemptTimeoutMs });
  const step = nextStepOf(result, attempt, deps.schedule, deps.random ?? Math.random);
  deps.log?.(`delivery ${step.kind}`, { target: target.key, deliveryId: delivery.deliveryId, attempt });
  if (step.kind === "delivered") return true;
  if (step.kind === "give-up") {
    await new DeliveryDlq(deps.sqs, dlqUrl).put(
      failureOf(delivery, attempt, step.reason, step.answer, new Date()),
    );
    return true;
  }
  const queueUrl = queueUrlOf(record.eventSourceARN);
  await deps.sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl,
      ReceiptHandle: record.receiptHandle,
      VisibilityTimeout: Math.ceil(step.delayMs / 1000),
    }),
  );
  return false;
}

/** The queue URL of an SQS queue ARN (`arn:aws:sqs:<region>:<account>:<name>`). */
export function queueUrlOf(queueArn: string): string {
  const [, partition, , region, account, name] = queueArn.split(":");
  const domain = partition === "aws-cn" ? "amazonaws.com.cn" : "amazonaws.com";
  return `https://sqs.${region}.${domain}/${account}/${name}`;
}
