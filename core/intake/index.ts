/**
 * The front door: work items over HTTPS. `routeIntakeRequest` is the one router the deployed
 * `functions/frontDoor` and the local server of `decisions up` serve; below it, the steps it runs
 * (the body read, each item validated, the webhook signature verified, the items put on their
 * lanes once per idempotency key).
 */
export { type AcceptWorkItemsPorts, acceptWorkItems } from "./acceptWorkItems.js";
export {
  DetailedIntakeError,
  IntakeError,
  IntakeSendError,
  IntakeTooLargeError,
  InvalidItemsError,
  UnknownIntakePolicyError,
  type WebhookRefusal,
  WebhookRefusedError,
} from "./errors.js";
export { IntakeIdempotency, type IntakeIdempotencyOptions } from "./IntakeIdempotency.js";
export { outcomeLocationOf } from "./outcomeLocationOf.js";
export { parseWebhookSecret, WebhookSecretError } from "./parseWebhookSecret.js";
export { readIntakeBody } from "./readIntakeBody.js";
export {
  type IntakeHttpRequest,
  type IntakeHttpResponse,
  type IntakeRouterDeps,
  routeIntakeRequest,
} from "./routeIntakeRequest.js";
export { validateIntakeItems } from "./validateIntakeItems.js";
export { verifyWebhookRequest } from "./verifyWebhookRequest.js";
