import { z } from "zod";
import { STORED_OUTCOME_STATUSES } from "../outcome/OutcomeSchema.js";

/** The outcome statuses a `deliver:` target may name in `on:`: every status a stored outcome can have. */
export const DELIVERABLE_STATUSES = STORED_OUTCOME_STATUSES;

/** `type` of every delivery's payload. */
export const DELIVERY_PAYLOAD_TYPE = "outcome.status_changed";

/** `source` of the events a `bus` target receives. */
export const DELIVERY_EVENT_SOURCE = "decisions.deliveries";

/** `detail-type` of the events a `bus` target receives (detail: the payload). */
export const DELIVERY_EVENT_DETAIL_TYPE = "Decision Outcome Delivered";

const answerValue = z.union([z.string(), z.number(), z.boolean()]);

/** One question's answer as delivered. */
export const DeliveredAnswerSchema = z.object({
  /** The answer that stands: a label, a level, or yes/no. */
  answer: answerValue,
  /** The model's (calibrated) probability of that answer. */
  probability: z.number(),
  /** Who set it: the model, a rule, the fallback, or a person. */
  source: z.enum(["model", "rule", "fallback", "human"]),
  /** The policy's threshold for the question. */
  threshold: z.number(),
});

/**
 * The JSON body of one delivery: one status change of one outcome. Its keys come in this order,
 * always; fields without a value are left out (never `null`, except `previous_status` on the
 * first decision). The body is serialised once per delivery and every attempt sends the same
 * bytes.
 */
export const DeliveryPayloadSchema = z.object({
  /** Always {@link DELIVERY_PAYLOAD_TYPE}. */
  type: z.literal(DELIVERY_PAYLOAD_TYPE),
  /** The `webhook-id` of this delivery: `<policy>:<id, percent-encoded>:<status>:<changed_at>`. */
  delivery_id: z.string(),
  /** The policy's name. */
  policy: z.string(),
  /** The policy version the outcome was decided (or reviewed) under. */
  policy_version: z.string().optional(),
  /** The work item id. */
  id: z.string(),
  /** The status after the change. */
  status: z.enum(STORED_OUTCOME_STATUSES),
  /** The status before it; `null` when the outcome was first recorded. */
  previous_status: z.enum(STORED_OUTCOME_STATUSES).nullable(),
  /** When the change was recorded (the outcome's `updated_at`, ISO-8601 UTC). */
  changed_at: z.string(),
  /** When the outcome was first recorded (ISO-8601 UTC). */
  created_at: z.string(),
  /** Question id → the answer that stands; absent for a rejected outcome. */
  answers: z.record(z.string(), DeliveredAnswerSchema).optional(),
  /** Why it was rejected or sent to review. */
  reason: z.string().optional(),
  /** The names of the rules whose condition held, in firing order. */
  rules_fired: z.array(z.string()),
  /** Who reviewed it, when a named person did. */
  reviewed_by: z.string().optional(),
  /** The model that answered, as the endpoint reported it. */
  model: z.string().optional(),
});

/** One delivery's body. */
export type DeliveryPayload = z.infer<typeof DeliveryPayloadSchema>;
/** One question's answer as delivered. */
export type DeliveredAnswer = z.infer<typeof DeliveredAnswerSchema>;
