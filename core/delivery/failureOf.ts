import type { DeliveryFailure, LastAnswer } from "../../contract/delivery/DeliveryFailureSchema.js";
import type { Delivery } from "./deliveriesOf.js";

/** The DLQ's record of a delivery given up on after `attempts` attempts. */
export function failureOf(
  delivery: Delivery,
  attempts: number,
  reason: string,
  answer: LastAnswer | undefined,
  at: Date,
): DeliveryFailure {
  const { target } = delivery.target;
  return {
    target: delivery.target.key,
    destination: target.url ?? target.bus ?? "",
    delivery_id: delivery.deliveryId,
    attempts,
    ...(answer === undefined ? {} : { last_answer: answer }),
    reason,
    failed_at: at.toISOString(),
    payload: delivery.payload,
  };
}
