import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import {
  MAX_KEPT_REVIEWS,
  MAX_KEPT_REVIEWS_BYTES,
  type OutcomeReview,
  REVIEWED_STATUS,
  type StoredOutcome,
  StoredOutcomeSchema,
} from "../../contract/outcome/OutcomeSchema.js";
import { errorNameOf } from "../common/tableErrorHint.js";
import type { AnswerValue, Policy } from "../policy/index.js";
import { jsonBytes } from "./boundOutcomeSize.js";
import {
  AmendRequiredError,
  NotReviewableError,
  OutcomeNotFoundError,
  OutcomesTableError,
  ReviewAnswerError,
  ReviewConflictError,
  ReviewHistoryFullError,
} from "./errors.js";
import { OutcomesReader } from "./OutcomesReader.js";
import { openQuestions } from "./openQuestions.js";
import { parseReviewAnswer } from "./parseReviewAnswer.js";

/** Options of {@link reviewOutcome}. */
export interface ReviewOutcomeOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** The outcome's policy, loaded (`core/policy`): the answers are checked against its questions. */
  policy: Policy;
  /** The work item id. */
  id: string;
  /** Question id → the reviewer's answer as typed (`--set q=answer`). At least one. */
  answers: Readonly<Record<string, string>>;
  /** Who reviews (`--by`). */
  by?: string;
  /**
   * The `updated_at` the reviewer saw (`--expect-updated-at`, from `outcomes show`). Default: the
   * one read at the start of this review.
   */
  expectUpdatedAt?: string;
  /**
   * The review may change answers a person gave (`--amend`, `amend: true`): needed to review an
   * outcome that is `reviewed`, or to answer a question a person answered; the review is then
   * recorded as an amendment. Default false: such a review is refused ({@link AmendRequiredError}).
   */
  amend?: boolean;
  /** The clock. Default `() => new Date()`. */
  now?: () => Date;
}

/** What {@link reviewOutcome} wrote. */
export interface ReviewResult {
  outcome: StoredOutcome;
  /** The outcome was decided under another version of the policy file than the one checked against. */
  policyChanged: boolean;
  /** The questions still waiting for a human answer (empty: the status became `reviewed`). */
  remaining: string[];
}

/**
 * Records a person's decision on an outcome (typically a `fallback` one waiting in the review
 * queue, or an audit item): each answer given replaces the one that stood (`source: "human"`),
 * the model's own answer is kept beside it in `model_answer` and its probability and
 * distribution stay. The status becomes `reviewed` only when no question is left open (see
 * `openQuestions`: every question that stood on its fallback, and on an audit item every model
 * answer, has a human answer); a partial review keeps the status and the index partition, so the
 * item stays in the review queue with the answers given so far. `review` records who, when, what
 * stood before, the version reviewed and what remains.
 *
 * A person's work is never replaced unasked: changing an answer a person gave (the outcome is
 * `reviewed`, or the question has a human answer) needs `amend` and is recorded as an amendment.
 * `reviews` is the history, oldest first: a review removes its own reviewer's earlier answers to
 * the same questions (`replaces_own`; anonymous reviews replace nothing), so each reviewer keeps
 * one entry per question. An entry whose every answer a later entry replaced is *superseded*;
 * the others hold the answers that stand, at most one entry per question. Past
 * {@link MAX_KEPT_REVIEWS} entries or {@link MAX_KEPT_REVIEWS_BYTES}, the oldest superseded
 * entries are dropped (counted in `reviews_dropped`; what each answered stays in the replacing
 * entry's `previous_answers`, with its reviewer's name): nobody can fill the history to lock
 * others out, and an answer that stands is never dropped. A review is refused
 * ({@link ReviewHistoryFullError}) only when the standing entries alone pass the byte bound.
 *
 * The write is conditional on the outcome not having changed since it was read (`updated_at`
 * and `status` as read, or `expectUpdatedAt`), so two reviewers never overwrite each other
 * unseen: the second gets a {@link ReviewConflictError} carrying the current outcome.
 *
 * @throws OutcomeNotFoundError when no outcome exists for (policy, id).
 * @throws AmendRequiredError when it would change a person's answer without `amend`.
 * @throws ReviewHistoryFullError when the answers that would stand alone pass the byte bound.
 * @throws NotReviewableError for a `rejected` outcome or one without answers.
 * @throws ReviewAnswerError for a question the policy or the outcome does not have, or an answer
 *   that does not fit it.
 * @throws ReviewConflictError when it changed since it was read.
 * @throws OutcomesTableError when DynamoDB fails.
 */
export async function reviewOutcome(options: ReviewOutcomeOptions): Promise<ReviewResult> {
  const { policy, id, tableName } = options;
  const table = new OutcomesReader({ client: options.client, tableName });
  const current = await table.get(policy.name, id);
  if (current === undefined) throw new OutcomeNotFoundError(tableName, policy.name, id);
  const expected = options.expectUpdatedAt ?? current.updated_at;
  if (expected !== current.updated_at) throw new ReviewConflictError(policy.name, id, expected, current);
  if (current.status === "rejected")
    throw new NotReviewableError(current, `it was rejected (${current.reason ?? "no reason"})`);
  const before = current.answers;
  if (before === undefined || Object.keys(before).length === 0)
    throw new NotReviewableError(current, "it has no answers");
  if (Object.keys(options.answers).length === 0) throw new ReviewAnswerError("", "give at least one answer");

  const given: Record<string, AnswerValue> = {};
  const answers = { ...before };
  const previous: NonNullable<StoredOutcome["review"]>["previous_answers"] = {};
  const byPerson: string[] = [];
  for (const [qid, text] of Object.entries(options.answers)) {
    const question = policy.question(qid);
    if (question === undefined) {
      throw new ReviewAnswerError(
        qid,
        `policy "${policy.name}" asks no such question (it asks ${policy.questions.map((q) => q.id).join(", ")})`,
      );
    }
    const stood = before[qid];
    if (stood === undefined) throw new ReviewAnswerError(qid, "this outcome has no answer to it");
    const value = parseReviewAnswer(question, text);
    if (stood.source === "human") byPerson.push(qid);
    given[qid] = value;
    const setBy = stood.source === "human" ? answeredBy(reviewsOf(current), qid) : undefined;
    previous[qid] = {
      answer: stood.answer,
      source: stood.source,
      ...(setBy === undefined ? {} : { by: setBy }),
    };
    const modelAnswer = stood.source === "model" ? stood.answer : (stood.model_answer ?? stood.answer);
    answers[qid] = { ...stood, answer: value, source: "human", model_answer: modelAnswer };
  }
  const amendment = current.status === REVIEWED_STATUS || byPerson.length > 0;
  if (amendment && options.amend !== true) throw new AmendRequiredError(current, byPerson);
  const at = laterThan(current.updated_at, (options.now ?? (() => new Date()))());
  const remaining = openQuestions({ ...current, answers });
  const status = remaining.length === 0 ? REVIEWED_STATUS : current.status;
  const review: OutcomeReview = {
    ...(options.by !== undefined ? { by: options.by } : {}),
    at,
    previous_status: current.status,
    previous_updated_at: current.updated_at,
    answers: given,
    previous_answers: previous,
    policy_version: policy.version,
    policy_sha256: policy.sha256,
    remaining,
    ...(amendment ? { amendment: true } : {}),
  };
  const appended = appendReview(reviewsOf(current), review);
  const { reviews, dropped } = boundReviews(appended);
  const bytes = jsonBytes(reviews);
  if (bytes > MAX_KEPT_REVIEWS_BYTES) {
    throw new ReviewHistoryFullError(
      current,
      { entries: reviews.length, bytes },
      { entries: MAX_KEPT_REVIEWS, bytes: MAX_KEPT_REVIEWS_BYTES },
    );
  }
  const reviewed: StoredOutcome = StoredOutcomeSchema.parse({
    ...current,
    status,
    policy_status: remaining.length === 0 ? `${policy.name}#${REVIEWED_STATUS}` : current.policy_status,
    updated_at: at,
    answers,
    review: reviews.at(-1),
    reviews,
    ...(dropped === 0 ? {} : { reviews_dropped: (current.reviews_dropped ?? 0) + dropped }),
  });
  try {
    await options.client.send(
      new PutCommand({
        TableName: tableName,
        Item: reviewed,
        ConditionExpression: "#updated = :updated AND #status = :status",
        ExpressionAttributeNames: { "#updated": "updated_at", "#status": "status" },
        ExpressionAttributeValues: { ":updated": current.updated_at, ":status": current.status },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
  } catch (error) {
    if ((error as { name?: unknown }).name === "ConditionalCheckFailedException") {
      // The old item comes back in attribute-value form even through the document client.
      const raw = (error as { Item?: Record<string, AttributeValue> }).Item;
      const now = raw === undefined ? undefined : unmarshall(raw);
      const parsed = now === undefined ? undefined : StoredOutcomeSchema.safeParse(now);
      throw new ReviewConflictError(policy.name, id, expected, parsed?.success ? parsed.data : now, {
        cause: error,
      });
    }
    throw new OutcomesTableError(tableName, errorNameOf(error), { cause: error });
  }
  return {
    outcome: reviewed,
    policyChanged: current.policy_sha256 !== undefined && current.policy_sha256 !== policy.sha256,
    remaining,
  };
}

/** The reviews an outcome holds, oldest first (one written before `reviews` existed counts as the first). */
export function reviewsOf(outcome: StoredOutcome): OutcomeReview[] {
  if (outcome.reviews !== undefined) return outcome.reviews;
  return outcome.review === undefined ? [] : [outcome.review];
}

/**
 * `earlier` with `review` appended. When the reviewer is named, their own earlier answers to the
 * questions `review` answers are taken out of their earlier entries (an entry left without answers
 * goes), and `review` names those entries in `replaces_own`: one entry per reviewer and question.
 * Another person's entry, or an anonymous one, is never touched.
 */
function appendReview(earlier: readonly OutcomeReview[], review: OutcomeReview): OutcomeReview[] {
  if (review.by === undefined) return [...earlier, review];
  const kept: OutcomeReview[] = [];
  const replaced: string[] = [];
  for (const entry of earlier) {
    const same =
      entry.by === review.by ? Object.keys(entry.answers).filter((qid) => qid in review.answers) : [];
    if (same.length === 0) {
      kept.push(entry);
      continue;
    }
    replaced.push(entry.at);
    const answers = withoutKeys(entry.answers, same);
    if (Object.keys(answers).length > 0)
      kept.push({ ...entry, answers, previous_answers: withoutKeys(entry.previous_answers, same) });
  }
  return [...kept, replaced.length === 0 ? review : { ...review, replaces_own: replaced }];
}

/**
 * `reviews` bounded: while it holds more than {@link MAX_KEPT_REVIEWS} entries or
 * {@link MAX_KEPT_REVIEWS_BYTES}, its oldest superseded entry (every answer of it replaced by a
 * later entry) goes. Entries holding an answer that stands are kept whatever the bound: at most
 * one per question.
 */
export function boundReviews(reviews: readonly OutcomeReview[]): {
  reviews: OutcomeReview[];
  dropped: number;
} {
  const kept = [...reviews];
  let dropped = 0;
  while (kept.length > MAX_KEPT_REVIEWS || jsonBytes(kept) > MAX_KEPT_REVIEWS_BYTES) {
    const index = kept.findIndex((entry, at) =>
      Object.keys(entry.answers).every((qid) => kept.slice(at + 1).some((later) => qid in later.answers)),
    );
    if (index < 0) break;
    kept.splice(index, 1);
    dropped += 1;
  }
  return { reviews: kept, dropped };
}

/** Who gave the standing answer to `qid`: the reviewer of the newest entry answering it, when named. */
export function answeredBy(reviews: readonly OutcomeReview[], qid: string): string | undefined {
  for (let at = reviews.length - 1; at >= 0; at -= 1) {
    const entry = reviews[at];
    if (entry !== undefined && qid in entry.answers) return entry.by;
  }
  return undefined;
}

function withoutKeys<T>(record: Readonly<Record<string, T>>, keys: readonly string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}

/** `now` as ISO-8601, moved to 1 ms after `previous` when the clock is not past it (the index sorts by it). */
function laterThan(previous: string, now: Date): string {
  const last = Date.parse(previous);
  return Number.isFinite(last) && now.getTime() <= last
    ? new Date(last + 1).toISOString()
    : now.toISOString();
}
