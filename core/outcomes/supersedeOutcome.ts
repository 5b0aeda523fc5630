import {
  type Outcome,
  type StoredOutcome,
  StoredOutcomeSchema,
} from "../../contract/outcome/OutcomeSchema.js";
import { REASON_CHARS } from "../../contract/outcome/outcomeLimits.js";
import {
  OUTCOME_CONFLICT_ENTRIES,
  OUTCOME_HISTORY_ENTRIES,
  type OutcomeConflict,
  type OutcomeHistoryEntry,
  SUPERSEDE_ANY,
} from "../../contract/outcome/outcomeRecordSchemas.js";
import { truncateText } from "../common/truncateText.js";
import { hasPersonsReview } from "./hasPersonsReview.js";
import { readSupersedeMarker } from "./readSupersedeMarker.js";
import { answeredBy, reviewsOf } from "./reviewOutcome.js";

/** What the decide path does with a new outcome when one already stands for its (policy, id). */
export type StandingAction =
  /** Replace the standing outcome (conditionally on its `updated_at`), keeping it in `history`. */
  | { action: "supersede"; item: Outcome }
  /** Leave it, and record the new payload on it as a conflict. */
  | { action: "conflict"; conflict: OutcomeConflict }
  /** Leave it: the same payload again (a redelivery, a resubmission), or a supersede refused. */
  | { action: "duplicate"; refused?: string };

/**
 * Decides what happens to `outcome` when `standing` already stands for its (policy, id):
 *
 * - a delivery of the message that wrote the standing outcome (same SQS message id) → duplicate:
 *   a redelivery never decides twice, with or without the supersede marker;
 * - the supersede marker (`supersede`) set to the standing outcome's `updated_at`, or to `*` →
 *   supersede: the new outcome, with the standing one as the newest `history` entry;
 * - the marker set to another version → duplicate, refused (the outcome changed since it was read);
 * - a standing outcome a person reviewed ({@link hasPersonsReview}) and a marker without
 *   `SUPERSEDE_REPLACE_REVIEWS_PREFIX` → duplicate, refused: a person's review is replaced only
 *   when the supersede says so;
 * - no marker and another payload hash → conflict (the standing outcome stays; the conflict is
 *   recorded on it unless the same payload is already recorded there);
 * - otherwise → duplicate (the same payload again: quiet).
 *
 * A standing item that is not a readable outcome is never replaced (duplicate).
 */
export function resolveStanding(
  outcome: Outcome,
  standing: unknown,
  options: { supersede?: string; conflictPreview?: string; conflictBytes?: number },
): StandingAction {
  const parsed = StoredOutcomeSchema.safeParse(standing);
  if (!parsed.success) return { action: "duplicate", refused: "the outcome that stands is not readable" };
  const old = parsed.data;
  const messageId = outcome.source.message_id;
  if (messageId !== undefined && old.source.message_id === messageId) return { action: "duplicate" };
  const marker = options.supersede;
  if (marker !== undefined) {
    const { version, replaceReviews } = readSupersedeMarker(marker);
    if (version !== SUPERSEDE_ANY && version !== old.updated_at) {
      return {
        action: "duplicate",
        refused: `the outcome changed since it was read (updated_at ${old.updated_at}, the redecide was for ${version})`,
      };
    }
    if (!replaceReviews && hasPersonsReview(old)) {
      return {
        action: "duplicate",
        refused: `a person reviewed the outcome that stands (${old.status}${old.review?.by === undefined ? "" : `, by ${old.review.by}`}${old.review === undefined ? "" : ` at ${old.review.at}`}): a supersede replaces a person's review only when it says so (decisions outcomes redecide --replace-reviews)`,
      };
    }
    return { action: "supersede", item: supersedingOutcome(outcome, old, marker) };
  }
  if (
    outcome.payload_sha256 !== undefined &&
    old.payload_sha256 !== undefined &&
    outcome.payload_sha256 !== old.payload_sha256
  ) {
    if (old.conflicts?.some((c) => c.payload_sha256 === outcome.payload_sha256))
      return { action: "duplicate" };
    return {
      action: "conflict",
      conflict: {
        payload_sha256: outcome.payload_sha256,
        at: outcome.updated_at,
        ...(messageId !== undefined ? { message_id: messageId } : {}),
        ...(options.conflictPreview !== undefined ? { preview: options.conflictPreview } : {}),
        ...(options.conflictBytes !== undefined ? { bytes: options.conflictBytes } : {}),
      },
    };
  }
  return { action: "duplicate" };
}

/** Whether another conflict fits the standing outcome's `conflicts` list. */
export function conflictsHaveRoom(standing: Pick<StoredOutcome, "conflicts">): boolean {
  return (standing.conflicts?.length ?? 0) < OUTCOME_CONFLICT_ENTRIES;
}

/**
 * The outcome that replaces `old`: `outcome` with what it supersedes, `old`'s history and `old`
 * itself as its newest entry (at most {@link OUTCOME_HISTORY_ENTRIES}, the oldest dropped), and
 * `old`'s conflicts (what came under the id stays visible).
 */
export function supersedingOutcome(outcome: Outcome, old: StoredOutcome, marker: string): Outcome {
  const history = [...(old.history ?? []), historyEntryOf(old, outcome.updated_at)].slice(
    -OUTCOME_HISTORY_ENTRIES,
  );
  return {
    ...outcome,
    supersedes: { updated_at: old.updated_at, status: old.status, requested: marker },
    history,
    ...(old.conflicts !== undefined ? { conflicts: old.conflicts } : {}),
    ...(old.conflict_count !== undefined ? { conflict_count: old.conflict_count } : {}),
  };
}

/**
 * What `history` keeps of an outcome: its status, reason, answers and who set them (a person's
 * answer under their name), every person's review (who, when, which answers), identities, times.
 */
export function historyEntryOf(old: StoredOutcome, supersededAt: string): OutcomeHistoryEntry {
  const reviews = reviewsOf(old);
  const answers =
    old.answers === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(old.answers).map(([qid, answer]) => {
            const by = answer.source === "human" ? answeredBy(reviews, qid) : undefined;
            return [
              qid,
              {
                answer: answer.answer,
                source: answer.source,
                probability: answer.probability,
                ...(by === undefined ? {} : { by }),
              },
            ];
          }),
        );
  const optional = {
    reason: old.reason === undefined ? undefined : truncateText(old.reason, REASON_CHARS),
    answers,
    policy_version: old.policy_version,
    policy_sha256: old.policy_sha256,
    model: old.model,
    model_sha256: old.model_sha256,
    adapter_build: old.adapter_build,
    payload_sha256: old.payload_sha256,
    message_id: old.source.message_id,
    reviewed_by: old.review?.by,
    reviews:
      reviews.length === 0
        ? undefined
        : reviews.map((review) => ({
            ...(review.by === undefined ? {} : { by: review.by }),
            at: review.at,
            answers: review.answers,
            ...(review.amendment === true ? { amendment: true } : {}),
          })),
    reviews_dropped: old.reviews_dropped,
  };
  return {
    status: old.status,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    created_at: old.created_at,
    updated_at: old.updated_at,
    superseded_at: supersededAt,
  };
}
