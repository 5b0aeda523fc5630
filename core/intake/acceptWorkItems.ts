import type { SQSClient } from "@aws-sdk/client-sqs";
import type { AcceptedAnswer, AcceptedItem } from "../../contract/intake/index.js";
import { DEFAULT_ITEM_LANE, LANES, type Lane } from "../../contract/lanes/lanes.js";
import { type SendMessageBatchesOptions, sendMessageBatches } from "../queue/index.js";
import { IntakeSendError } from "./errors.js";
import { outcomeLocationOf } from "./outcomeLocationOf.js";
import type { ValidIntakeItem } from "./validateIntakeItems.js";

/** What {@link acceptWorkItems} sends with. */
export interface AcceptWorkItemsPorts {
  sqs: Pick<SQSClient, "send">;
  /** Each lane's work queue. */
  queueUrls: Readonly<Record<Lane, string>>;
  /** The lane a policy declares (`lane:` in its file), or undefined when it declares none. */
  laneOfPolicy: (policy: string) => Lane | undefined;
  /** SendMessageBatch's retries of entries SQS failed on its side. Default its own (5 attempts). */
  send?: SendMessageBatchesOptions;
  /** The clock of `accepted_at`. Default `new Date()`. */
  now?: () => Date;
}

/**
 * Puts valid items on their lanes' queues (each item's policy's `lane`, else interactive, as
 * `decisions submit` picks it) with SendMessageBatch, each body the item's text exactly as sent,
 * and answers with every item's id, lane, message id and outcome location.
 *
 * @param idempotencyKey the key the answer is kept under, echoed in it.
 * @throws IntakeSendError when any item did not reach its queue after the sender's retries
 *   (the request may be retried: items that did reach a queue are then duplicates the pipeline drops).
 */
export async function acceptWorkItems(
  items: readonly ValidIntakeItem[],
  idempotencyKey: string,
  ports: AcceptWorkItemsPorts,
): Promise<AcceptedAnswer> {
  const laneOf = (item: ValidIntakeItem): Lane => ports.laneOfPolicy(item.item.policy) ?? DEFAULT_ITEM_LANE;
  const accepted: AcceptedItem[] = [];
  const failures: string[] = [];
  for (const lane of LANES) {
    const inLane = items.filter((item) => laneOf(item) === lane);
    if (inLane.length === 0) continue;
    const results = await sendMessageBatches(
      ports.sqs,
      ports.queueUrls[lane],
      inLane.map((item) => ({ body: item.text })),
      ports.send,
    );
    results.forEach((result, at) => {
      const item = inLane[at];
      if (item === undefined) return;
      if (!result.ok) {
        failures.push(`item ${item.index} (${item.item.id}): ${result.code}: ${result.message}`);
        return;
      }
      accepted.push({
        index: item.index,
        id: item.item.id,
        policy: item.item.policy,
        lane,
        message_id: result.messageId,
        outcome: outcomeLocationOf(item.item.policy, item.item.id),
      });
    });
  }
  if (failures.length > 0)
    throw new IntakeSendError(
      `${failures.length} of ${items.length} item(s) could not be queued (${failures.slice(0, 3).join("; ")}${failures.length > 3 ? "; …" : ""}); send the same request again with the same key: items already queued are not decided twice`,
    );
  accepted.sort((a, b) => a.index - b.index);
  return {
    accepted,
    idempotency_key: idempotencyKey,
    accepted_at: (ports.now?.() ?? new Date()).toISOString(),
  };
}
