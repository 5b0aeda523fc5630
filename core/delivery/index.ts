/**
 * Delivery of outcomes (docs/deliveries.md): each status change of an outcome whose policy has a
 * `deliver:` section becomes one delivery per matching target — a Standard Webhooks-signed POST, or
 * an event on an EventBridge bus — retried by the schedule, then kept in a delivery DLQ with its
 * reason. The local stack and the deployed deliver function run these same units.
 */
export { type AttemptResult, attemptDelivery, DELIVERY_USER_AGENT } from "./attemptDelivery.js";
export { DeliveryDlq, type HeldFailure, type HeldFailures } from "./DeliveryDlq.js";
export { DeliveryRunner, type DeliveryRunnerOptions } from "./DeliveryRunner.js";
export { type Delivery, deliveriesOf } from "./deliveriesOf.js";
export { deliveryIdOf } from "./deliveryIdOf.js";
export { deliveryPayloadOf } from "./deliveryPayloadOf.js";
export { DeliveryError, DeliverySecretError, UnknownDeliveryTargetError } from "./errors.js";
export { failureOf } from "./failureOf.js";
export { type NextStep, nextStepOf } from "./nextStepOf.js";
export { type OutcomeChange, type OutcomeStreamRecord, outcomeChangeOf } from "./outcomeChangeOf.js";
export { type RedriveResult, type RedriveSelection, redriveFailures } from "./redriveFailures.js";
export { resolveSecret } from "./resolveSecret.js";
export { type ResolvedTarget, resolveTarget, resolveTargets } from "./resolveTargets.js";
export { retryDelayMs } from "./retryDelayMs.js";
export { type SendPorts, sendDelivery } from "./sendDelivery.js";
export { signDelivery, type WebhookHeaders } from "./signDelivery.js";
