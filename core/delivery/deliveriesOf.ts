import type { DeliveryPayload } from "../../contract/delivery/DeliveryPayloadSchema.js";
import { deliveryPayloadOf } from "./deliveryPayloadOf.js";
import type { OutcomeChange } from "./outcomeChangeOf.js";
import type { ResolvedTarget } from "./resolveTargets.js";

/** One status change on its way to one target. */
export interface Delivery {
  target: ResolvedTarget;
  /** The `webhook-id` (the payload's `delivery_id`). */
  deliveryId: string;
  payload: DeliveryPayload;
  /** The payload's JSON text, serialised once: every attempt sends these bytes. */
  body: string;
}

/**
 * The deliveries a change makes: one per target of the outcome's policy whose `on` lists the new
 * status. None for a policy without a `deliver` section.
 */
export function deliveriesOf(change: OutcomeChange, targets: readonly ResolvedTarget[]): Delivery[] {
  const matching = targets.filter(
    (target) => target.policy === change.outcome.policy && target.target.on.includes(change.outcome.status),
  );
  if (matching.length === 0) return [];
  const payload = deliveryPayloadOf(change);
  const body = JSON.stringify(payload);
  return matching.map((target) => ({ target, deliveryId: payload.delivery_id, payload, body }));
}
