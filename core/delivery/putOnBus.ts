import { type EventBridgeClient, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import {
  DELIVERY_EVENT_DETAIL_TYPE,
  DELIVERY_EVENT_SOURCE,
} from "../../contract/delivery/DeliveryPayloadSchema.js";
import { httpStatusOf } from "../common/isTransientNetworkError.js";
import type { AttemptResult } from "./attemptDelivery.js";
import type { Delivery } from "./deliveriesOf.js";

/** PutEvents entry error codes worth another attempt. */
const RETRIED_ENTRY_ERRORS = new Set(["ThrottlingException", "InternalException", "InternalFailure"]);

/**
 * Puts one delivery on its target's EventBridge bus: `source` {@link DELIVERY_EVENT_SOURCE},
 * `detail-type` {@link DELIVERY_EVENT_DETAIL_TYPE}, the payload as `detail`. A throttled or
 * internal failure (and a 5xx or connection failure of the call) is retried; any other refusal
 * (access denied, no such bus) goes to the DLQ at once.
 */
export async function putOnBus(
  client: Pick<EventBridgeClient, "send">,
  delivery: Delivery,
): Promise<AttemptResult> {
  const bus = delivery.target.target.bus ?? "";
  try {
    const output = await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: bus,
            Source: DELIVERY_EVENT_SOURCE,
            DetailType: DELIVERY_EVENT_DETAIL_TYPE,
            Detail: delivery.body,
          },
        ],
      }),
    );
    const entry = output.Entries?.[0];
    if ((output.FailedEntryCount ?? 0) === 0 && entry?.EventId !== undefined)
      return { kind: "delivered", status: 200 };
    const error = `${entry?.ErrorCode ?? "PutEvents failed"}: ${entry?.ErrorMessage ?? "no entry came back"}`;
    return RETRIED_ENTRY_ERRORS.has(entry?.ErrorCode ?? "")
      ? { kind: "retry", answer: { error }, retryAfterMs: undefined }
      : { kind: "refused", answer: { error } };
  } catch (error) {
    const status = httpStatusOf(error);
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return status !== undefined && status < 500 && status !== 429
      ? { kind: "refused", answer: { error: text } }
      : { kind: "retry", answer: { error: text }, retryAfterMs: undefined };
  }
}
