import type { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { type AttemptResult, attemptDelivery } from "./attemptDelivery.js";
import type { Delivery } from "./deliveriesOf.js";
import { putOnBus } from "./putOnBus.js";

/** What one attempt of a delivery needs. */
export interface SendPorts {
  /** How long a url attempt waits for the answer (milliseconds). */
  timeoutMs: number;
  /** For bus targets. Without it a bus delivery is refused (the local stack has no EventBridge). */
  eventBridge?: Pick<EventBridgeClient, "send">;
  /** The fetch url attempts use. Default the global one. */
  fetch?: typeof fetch;
  /** The clock signatures are timed by. Default `new Date()`. */
  now?: () => Date;
}

/** One attempt of a delivery: a signed POST to its url, or a PutEvents to its bus. */
export function sendDelivery(delivery: Delivery, ports: SendPorts): Promise<AttemptResult> {
  const { target, secret } = delivery.target;
  if (target.url !== undefined && secret !== undefined)
    return attemptDelivery({
      url: target.url,
      secret,
      deliveryId: delivery.deliveryId,
      body: delivery.body,
      timeoutMs: ports.timeoutMs,
      ...(ports.now === undefined ? {} : { now: ports.now }),
      ...(ports.fetch === undefined ? {} : { fetch: ports.fetch }),
    });
  if (target.bus !== undefined && ports.eventBridge !== undefined)
    return putOnBus(ports.eventBridge, delivery);
  return Promise.resolve({
    kind: "refused",
    answer: { error: "bus targets are delivered on AWS only: the local stack has no EventBridge bus" },
  });
}
