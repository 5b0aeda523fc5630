/**
 * Delivery of outcomes to the targets a policy's `deliver:` section names: the payload, the failure
 * kept in a delivery DLQ and the retry schedule (docs/deliveries.md).
 */
export {
  ANSWER_EXCERPT_CHARS,
  type DeliveryFailure,
  DeliveryFailureSchema,
  type LastAnswer,
  LastAnswerSchema,
} from "./DeliveryFailureSchema.js";
export {
  DELIVERABLE_STATUSES,
  DELIVERY_EVENT_DETAIL_TYPE,
  DELIVERY_EVENT_SOURCE,
  DELIVERY_PAYLOAD_TYPE,
  type DeliveredAnswer,
  DeliveredAnswerSchema,
  type DeliveryPayload,
  DeliveryPayloadSchema,
} from "./DeliveryPayloadSchema.js";
export { DEFAULT_DELIVERY_SCHEDULE, type DeliverySchedule } from "./deliverySchedule.js";
