import type { MessageAttributeValue, SQSClient } from "@aws-sdk/client-sqs";
import {
  hasPersonsReview,
  type StoredOutcome,
  SUPERSEDE_ATTRIBUTE,
  supersedeMarkerText,
  UNPARSED_POLICY,
  WORK_ITEM_KEPT_BYTES,
} from "../../core/outcomes/index.js";
import { type SendMessageBatchesOptions, sendMessageBatches } from "../queue/index.js";

/** An outcome a redecide cannot send again, and why. */
export interface UnsendableOutcome {
  policy: string;
  id: string;
  reason: string;
}

/** Outcomes chosen for a redecide, split by whether their work item can be sent again. */
export interface RedecidePlan {
  /** Outcomes whose work item is kept (`work_item`): each is sent again. */
  ready: StoredOutcome[];
  unsendable: UnsendableOutcome[];
  /**
   * Outcomes a person reviewed, left as they are (not sent) because the redecide was not asked to
   * replace reviews (`replaceReviews`).
   */
  reviewed: StoredOutcome[];
}

/** Options of {@link planRedecide} and {@link sendRedecides}. */
export interface RedecideReviewOptions {
  /**
   * Outcomes a person reviewed are sent too, with a marker that may replace the review (the
   * review stays in the new outcome's history). Default false: they are kept, listed in `reviewed`.
   */
  replaceReviews?: boolean;
}

/** How one redecide message ended. */
export type RedecideSent =
  | { ok: true; policy: string; id: string; updatedAt: string; messageId: string }
  | { ok: false; policy: string; id: string; code: string; message: string };

/**
 * Splits outcomes into those a redecide can send again and those it cannot: an outcome keeps its
 * work item's text only up to `WORK_ITEM_KEPT_BYTES` (and outcomes written before it kept any have
 * none); an item stored under `_unparsed` is keyed by the message it came in, so sending it again
 * would not replace it. An outcome a person reviewed (status `reviewed`, or a partial review) is
 * kept and listed in `reviewed`, unless `replaceReviews`.
 */
export function planRedecide(
  outcomes: readonly StoredOutcome[],
  options: RedecideReviewOptions = {},
): RedecidePlan {
  const plan: RedecidePlan = { ready: [], unsendable: [], reviewed: [] };
  for (const outcome of outcomes) {
    const key = { policy: outcome.policy, id: outcome.id };
    if (options.replaceReviews !== true && hasPersonsReview(outcome)) {
      plan.reviewed.push(outcome);
    } else if (outcome.policy === UNPARSED_POLICY) {
      plan.unsendable.push({
        ...key,
        reason:
          "it is stored under the message id of a body that could not be read as a work item; fix the producer and send the item again",
      });
    } else if (outcome.work_item === undefined) {
      plan.unsendable.push({ ...key, reason: notKept(outcome) });
    } else plan.ready.push(outcome);
  }
  return plan;
}

/** Options of {@link sendRedecides}. */
export interface SendRedecidesOptions extends SendMessageBatchesOptions, RedecideReviewOptions {
  sqs: Pick<SQSClient, "send">;
  /** The work queue the decide function reads. */
  queueUrl: string;
}

/**
 * Sends each outcome's kept work item to the work queue again, exactly as it first arrived, with
 * the supersede marker set to the `updated_at` read: the decide path replaces the outcome only if
 * it is still that version (a review or another redecide since then wins), and keeps the old one in
 * the new outcome's history. The decide path never replaces an outcome a person reviewed unless the
 * marker says so: with `replaceReviews`, it does for the outcomes that were reviewed when read.
 */
export async function sendRedecides(
  outcomes: readonly StoredOutcome[],
  options: SendRedecidesOptions,
): Promise<RedecideSent[]> {
  const messages = outcomes.map((outcome) => ({
    body: outcome.work_item ?? "",
    messageAttributes: supersedeMarker(outcome.updated_at, {
      replaceReviews: options.replaceReviews === true && hasPersonsReview(outcome),
    }),
  }));
  const results = await sendMessageBatches(options.sqs, options.queueUrl, messages, options);
  return results.map((result, index) => {
    const outcome = outcomes[index] as StoredOutcome;
    const key = { policy: outcome.policy, id: outcome.id };
    return result.ok
      ? { ok: true, ...key, updatedAt: outcome.updated_at, messageId: result.messageId }
      : { ok: false, ...key, code: result.code, message: result.message };
  });
}

/**
 * The message attribute that asks the decide path to supersede the outcome at `version` (`*`: any);
 * with `replaceReviews`, even one a person reviewed.
 */
export function supersedeMarker(
  version: string,
  options: RedecideReviewOptions = {},
): Record<string, MessageAttributeValue> {
  return {
    [SUPERSEDE_ATTRIBUTE]: { DataType: "String", StringValue: supersedeMarkerText(version, options) },
  };
}

function notKept(outcome: StoredOutcome): string {
  const where =
    outcome.source.bucket !== undefined && outcome.source.key !== undefined
      ? ` It came from s3://${outcome.source.bucket}/${outcome.source.key}${outcome.source.version_id ? ` (version ${outcome.source.version_id})` : ""} line ${outcome.source.line ?? "?"}.`
      : "";
  const size =
    outcome.work_item_bytes !== undefined
      ? `its work item (${outcome.work_item_bytes} bytes) is larger than the ${WORK_ITEM_KEPT_BYTES} bytes an outcome keeps`
      : "the outcome keeps no work item (written before outcomes kept them)";
  return `${size}; send it again with \`decisions submit --supersede <file>\`.${where}`;
}
