import { z } from "zod";
import { LaneSchema } from "../lanes/lanes.js";

/** Where an accepted item's outcome will be: its key, and how to read it. */
export const OutcomeLocationSchema = z.object({
  /** The outcome's key in the outcomes table: the policy and the item's id. */
  policy: z.string(),
  id: z.string(),
  /** The review console API's path of the item (`GET`, percent-encoded). */
  review_api_path: z.string(),
  /** The operator's command that prints it. */
  show: z.string(),
});

/** One accepted item of a 202 answer. */
export const AcceptedItemSchema = z.object({
  /** Its place in the request (0 for a single item). */
  index: z.number().int().nonnegative(),
  id: z.string(),
  policy: z.string(),
  /** The lane it was sent to: its policy's `lane`, else interactive. */
  lane: LaneSchema,
  /** The SQS message id it travels as. */
  message_id: z.string(),
  outcome: OutcomeLocationSchema,
});

/**
 * The 202 answer of `POST /v1/work-items` and `/v1/webhooks/work-items`: every item was sent to
 * its lane. A retry under the same key gets this same body again, with `Idempotent-Replayed: true`.
 */
export const AcceptedAnswerSchema = z.object({
  accepted: z.array(AcceptedItemSchema),
  /** The key the answer is kept under: the `Idempotency-Key`, else the `webhook-id`, else `items:<sha256 of the items' policies and ids>`. */
  idempotency_key: z.string(),
  /** When the first request was accepted (ISO 8601). */
  accepted_at: z.string(),
});

/** One problem of a 400 answer: which item, which field, which rule. */
export const ItemProblemSchema = z.object({
  /** The item's place in the request (0 for a single item). */
  index: z.number().int().nonnegative(),
  /** The item's id, when it had a readable one. */
  id: z.string().optional(),
  /** The field's path inside the item, as a list (`["state"]`, `["facts", "tier"]`); empty for the item itself. */
  path: z.array(z.union([z.string(), z.number()])),
  /** The same path as text (`facts.tier`; `(item)` for the item itself). */
  field: z.string(),
  /** The rule it broke, in words. */
  rule: z.string(),
});

/** A refusal: what went wrong, in words a sender can act on, and the details by kind. */
export const IntakeErrorAnswerSchema = z.object({
  error: z.string(),
  /** A short name of the refusal (`invalid_items`, `unknown_policy`, `too_large`, `bad_signature`, …). */
  reason: z.string(),
  /** 400: every invalid item. */
  problems: z.array(ItemProblemSchema).optional(),
  /** 404: the policies this deployment knows. */
  known_policies: z.array(z.string()).optional(),
  /** Whether the same request may succeed later unchanged (429, 409, 503). */
  retryable: z.boolean().optional(),
});

/** Where an accepted item's outcome will be. */
export type OutcomeLocation = z.infer<typeof OutcomeLocationSchema>;
/** A 202 answer. */
export type AcceptedAnswer = z.infer<typeof AcceptedAnswerSchema>;
/** One item of a 202 answer. */
export type AcceptedItem = z.infer<typeof AcceptedItemSchema>;
/** One problem of a 400 answer. */
export type ItemProblem = z.infer<typeof ItemProblemSchema>;
/** A refusal's body. */
export type IntakeErrorAnswer = z.infer<typeof IntakeErrorAnswerSchema>;
