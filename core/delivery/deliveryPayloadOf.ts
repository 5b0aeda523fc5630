import {
  DELIVERY_PAYLOAD_TYPE,
  type DeliveredAnswer,
  type DeliveryPayload,
} from "../../contract/delivery/DeliveryPayloadSchema.js";
import { deliveryIdOf } from "./deliveryIdOf.js";
import type { OutcomeChange } from "./outcomeChangeOf.js";

/**
 * The payload of one status change, its keys always in the order of `DeliveryPayloadSchema`, so the
 * same change always serialises to the same bytes. Only what a receiver acts on is carried: each
 * answer with its probability, source and threshold (not the full distribution), the reason, the
 * rules that fired, who reviewed it.
 */
export function deliveryPayloadOf(change: OutcomeChange): DeliveryPayload {
  const { outcome } = change;
  const changedAt = outcome.updated_at;
  const reviewer = outcome.status === "reviewed" ? outcome.review?.by : undefined;
  return {
    type: DELIVERY_PAYLOAD_TYPE,
    delivery_id: deliveryIdOf({ policy: outcome.policy, id: outcome.id, status: outcome.status, changedAt }),
    policy: outcome.policy,
    ...(outcome.policy_version === undefined ? {} : { policy_version: String(outcome.policy_version) }),
    id: outcome.id,
    status: outcome.status,
    previous_status: change.previousStatus,
    changed_at: changedAt,
    created_at: outcome.created_at,
    ...(outcome.answers === undefined ? {} : { answers: answersOf(outcome.answers) }),
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    rules_fired: outcome.rules_fired.map((rule) => rule.name),
    ...(reviewer === undefined ? {} : { reviewed_by: reviewer }),
    ...(outcome.model === undefined ? {} : { model: outcome.model }),
  };
}

function answersOf(
  answers: NonNullable<OutcomeChange["outcome"]["answers"]>,
): Record<string, DeliveredAnswer> {
  return Object.fromEntries(
    Object.entries(answers).map(([question, answer]) => [
      question,
      {
        answer: answer.answer,
        probability: answer.probability,
        source: answer.source,
        threshold: answer.threshold,
      },
    ]),
  );
}
