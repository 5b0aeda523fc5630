import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ReviewOrder } from "../../contract/outcome/reviewOrder.js";
import type {
  ConsoleDriftReport,
  ItemView,
  PolicyStats,
  QueueItem,
  QueuePage,
  WaitingCount,
  WorthWindow,
} from "../../contract/outcome/reviewViews.js";
import {
  OutcomeNotFoundError,
  OutcomesReader,
  openQuestions,
  ReviewQueueReader,
  reviewOutcome,
  reviewsOf,
  type StoredOutcome,
} from "../outcomes/index.js";
import type { Policy, PolicySet } from "../policy/index.js";
import type { ShadowReport } from "../shadow/index.js";
import { ReviewRequestError, UnknownReviewPolicyError } from "./errors.js";
import { type PolicyDriftQuery, readPolicyDrift } from "./policyDrift.js";
import { type PolicyShadowQuery, readPolicyShadow } from "./policyShadow.js";
import { summarizePolicyStats } from "./policyStats.js";
import type { Reviewer } from "./reviewerOf.js";
import { countWaiting, type ReviewQueuePage, readReviewQueue } from "./reviewQueue.js";
import { readReviewQueueByWorth } from "./reviewQueueByWorth.js";
import { reviewQueueWorth } from "./reviewQueueWorth.js";

/** Where the whole state of an item waiting for review is kept, by its sha256 (optional). */
export interface StateArchive {
  /** The state's JSON text, or undefined when it is not (or no longer) kept. */
  get(stateSha256: string): Promise<string | undefined>;
}

/** Options of {@link ReviewApi}. */
export interface ReviewApiOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  policies: PolicySet;
  /** The whole states; without one, an item page shows the outcome's bounded preview. */
  states?: StateArchive;
  /** The clock of review times. Default `() => new Date()`. */
  now?: () => Date;
  /** Outcomes read for a policy's pictures, at most. Default 5000. */
  statsLimit?: number;
  /** Index entries one filtered queue request reads per Query. Default 200 (`DEFAULT_QUEUE_READ_PAGE`). */
  queueReadPageSize?: number;
  /**
   * Index entries one queue request reads, at most, beyond each partition's first page: a filter
   * that matches little answers a shorter page marked `cut` and a `next` to continue, instead of
   * reading the whole queue. Default 1000 (`DEFAULT_QUEUE_MAX_READ`).
   */
  queueMaxRead?: number;
  /**
   * Waiting index entries a worth order (`margin`, `entropy`) is computed over at once: its
   * window. Each page of such a listing reads its window. Default 1000 (`DEFAULT_WORTH_WINDOW`).
   */
  queueWorthWindow?: number;
}

/** Filters of the review queue. */
export interface QueueFilter {
  policy?: string;
  /** Only items with this question on its fallback. */
  question?: string;
  /** Only items on which this rule fired. */
  rule?: string;
  /** Only items waiting at most this many hours. */
  maxAgeHours?: number;
  before?: string;
  limit?: number;
  /** The queue's order (see `REVIEW_ORDERS`). Default `newest`. */
  order?: ReviewOrder;
}

/**
 * The review console's operations, independent of the transport (the local server of `decisions
 * up` and the deployed API's Lambda both call it): the queue across policies, an item with
 * everything a reviewer needs, a conditional review write, and a policy's pictures.
 */
export class ReviewApi {
  readonly #options: ReviewApiOptions;
  readonly #table: OutcomesReader;
  readonly #queue: ReviewQueueReader;

  constructor(options: ReviewApiOptions) {
    this.#options = options;
    this.#table = new OutcomesReader({ client: options.client, tableName: options.tableName });
    this.#queue = new ReviewQueueReader({ client: options.client, tableName: options.tableName });
  }

  /** The loaded policies' names. */
  policyNames(): string[] {
    return this.#options.policies.names();
  }

  /**
   * A page of items waiting for review, newest first or by what a label is worth (`order`; a worth
   * order is computed over a window of waiting entries, which the page reports).
   * @throws ReviewRequestError, UnknownReviewPolicyError
   */
  async queue(filter: QueueFilter): Promise<QueuePage> {
    const policies = filter.policy === undefined ? this.policyNames() : [this.#policy(filter.policy).name];
    if (filter.question !== undefined) this.#checkQuestion(filter.question, policies);
    const limit = filter.limit ?? 25;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new ReviewRequestError(["query", "limit"], "give a whole number from 1 to 100");
    const oldest =
      filter.maxAgeHours === undefined
        ? undefined
        : new Date(this.#now().getTime() - filter.maxAgeHours * 3_600_000).toISOString();
    const filtered = filter.question !== undefined || filter.rule !== undefined || oldest !== undefined;
    const keep = (outcome: StoredOutcome) =>
      (filter.question === undefined || openQuestions(outcome).includes(filter.question)) &&
      (filter.rule === undefined || (outcome.rules_fired ?? []).some((rule) => rule.name === filter.rule)) &&
      (oldest === undefined || outcome.updated_at >= oldest);
    const order = filter.order ?? "newest";
    const worthOrder = order === "newest" ? undefined : order;
    const worth = (outcome: StoredOutcome): number | undefined =>
      worthOrder === undefined
        ? undefined
        : reviewQueueWorth(outcome, worthOrder, this.#options.policies.get(outcome.policy));
    const page: ReviewQueuePage & { window?: WorthWindow } =
      worthOrder === undefined
        ? await readReviewQueue({
            reader: this.#queue,
            policies,
            limit,
            ...(filter.before === undefined ? {} : { before: filter.before }),
            ...(this.#options.queueReadPageSize === undefined
              ? {}
              : { readPageSize: this.#options.queueReadPageSize }),
            ...(this.#options.queueMaxRead === undefined ? {} : { maxRead: this.#options.queueMaxRead }),
            ...(filtered ? { keep } : {}),
          })
        : await readReviewQueueByWorth({
            reader: this.#queue,
            policies,
            order: worthOrder,
            worth: (outcome) => worth(outcome) ?? 0,
            limit,
            ...(filter.before === undefined ? {} : { before: filter.before }),
            ...(filtered ? { keep } : {}),
            ...(this.#options.queueWorthWindow === undefined
              ? {}
              : { window: this.#options.queueWorthWindow }),
          });
    const items = page.items.map(
      (outcome): QueueItem => ({
        policy: outcome.policy,
        id: outcome.id,
        updated_at: outcome.updated_at,
        created_at: outcome.created_at,
        open_questions: this.#openQuestions(outcome),
        rules: (outcome.rules_fired ?? []).map((rule) => rule.name),
        ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
        ...(outcome.state_preview === undefined ? {} : { state_preview: outcome.state_preview }),
        ...(outcome.audit === undefined ? {} : { audit: true }),
        ...(worthOrder === undefined ? {} : { worth: worth(outcome) ?? 0 }),
      }),
    );
    return {
      items,
      ...(page.next === undefined ? {} : { next: page.next }),
      read: page.read,
      ...(page.cut === undefined ? {} : { cut: page.cut }),
      order,
      ...(page.window === undefined ? {} : { window: page.window }),
    };
  }

  /**
   * How many items wait for review in `policy` (or every policy), before the question, rule and
   * age filters: the entries of the by-status index's waiting partitions, counted up to `bound`.
   * @throws UnknownReviewPolicyError
   */
  async waiting(policy: string | undefined, bound?: number): Promise<WaitingCount> {
    const policies = policy === undefined ? this.policyNames() : [this.#policy(policy).name];
    const counted = await countWaiting({
      reader: this.#queue,
      policies,
      ...(bound === undefined ? {} : { bound }),
    });
    return { waiting: counted.count, ...(counted.more ? { more: true } : {}), policies };
  }

  /** An item with its policy, state and history. @throws OutcomeNotFoundError, UnknownReviewPolicyError */
  async item(policyName: string, id: string): Promise<ItemView> {
    const policy = this.#policy(policyName);
    const outcome = await this.#table.get(policy.name, id);
    if (outcome === undefined) throw new OutcomeNotFoundError(this.#options.tableName, policy.name, id);
    const archived =
      outcome.state_sha256 === undefined ? undefined : await this.#options.states?.get(outcome.state_sha256);
    const state =
      archived !== undefined
        ? { text: archived, complete: true }
        : {
            text: outcome.state_preview ?? "",
            complete:
              outcome.state_bytes === undefined ||
              outcome.state_bytes <= (outcome.state_preview?.length ?? 0),
            ...(outcome.state_bytes === undefined ? {} : { bytes: outcome.state_bytes }),
          };
    return {
      outcome,
      policy: describePolicy(policy),
      open_questions: inPolicyOrder(policy, openQuestions(outcome)),
      state,
      history: reviewsOf(outcome),
    };
  }

  /**
   * Records the reviewer's answers, conditional on the outcome being the version the reviewer saw;
   * changing a person's answer needs `amend` (see `reviewOutcome`).
   * @throws ReviewConflictError (the current outcome attached), ReviewAnswerError, NotReviewableError,
   *   AmendRequiredError, ReviewHistoryFullError, OutcomeNotFoundError, ReviewRequestError
   */
  async review(
    policyName: string,
    id: string,
    body: { answers: Record<string, string>; expectUpdatedAt: string; amend?: boolean },
    reviewer: Reviewer,
  ): Promise<ItemView> {
    const policy = this.#policy(policyName);
    await reviewOutcome({
      client: this.#options.client,
      tableName: this.#options.tableName,
      policy,
      id,
      answers: body.answers,
      by: reviewer.name,
      expectUpdatedAt: body.expectUpdatedAt,
      ...(body.amend === true ? { amend: true } : {}),
      now: () => this.#now(),
    });
    return this.item(policy.name, id);
  }

  /** A policy's pictures from its newest outcomes. @throws UnknownReviewPolicyError */
  async stats(policyName: string): Promise<PolicyStats> {
    const policy = this.#policy(policyName);
    const limit = this.#options.statsLimit ?? 5000;
    const outcomes = await this.#queue.policyOutcomes(policy.name, limit);
    return summarizePolicyStats(policy, outcomes);
  }

  /** A policy's drift: the last hour (or since `query.since`) against its baseline (`readPolicyDrift`). @throws UnknownReviewPolicyError, ReviewRequestError */
  async drift(policyName: string, query: PolicyDriftQuery): Promise<ConsoleDriftReport> {
    return readPolicyDrift({ ...this.#options, policy: this.#policy(policyName), now: this.#now(), query });
  }

  /** A policy's shadow report: its candidate against the live outcomes (`readPolicyShadow`). @throws UnknownReviewPolicyError, ReviewRequestError */
  async shadow(policyName: string, query: PolicyShadowQuery): Promise<ShadowReport> {
    return readPolicyShadow({ ...this.#options, policy: this.#policy(policyName), query });
  }

  #policy(name: string): Policy {
    const policy = this.#options.policies.get(name);
    if (policy === undefined) throw new UnknownReviewPolicyError(name, this.policyNames());
    return policy;
  }

  /**
   * A question filter names a question of one of `policies`: else a 400 that names their questions
   * (a typo would otherwise list nothing, as if nothing waited).
   * @throws ReviewRequestError
   */
  #checkQuestion(question: string, policies: readonly string[]): void {
    const known = policies.flatMap((name) => {
      const policy = this.#options.policies.get(name);
      return policy === undefined ? [] : [{ name, questions: policy.questions.map((q) => q.id) }];
    });
    if (known.some((policy) => policy.questions.includes(question))) return;
    const list = known.map((policy) => `${policy.name}: ${policy.questions.join(", ")}`).join("; ");
    throw new ReviewRequestError(
      ["query", "question"],
      known.length === 1
        ? `${known[0]?.name} has no question "${question}"; its questions are ${known[0]?.questions.join(", ")}`
        : `no policy has a question "${question}"; the questions are ${list}`,
    );
  }

  /** An outcome's open questions in its policy's order. */
  #openQuestions(outcome: StoredOutcome): string[] {
    const policy = this.#options.policies.get(outcome.policy);
    return policy === undefined ? openQuestions(outcome) : inPolicyOrder(policy, openQuestions(outcome));
  }

  #now(): Date {
    return (this.#options.now ?? (() => new Date()))();
  }
}

/**
 * Question ids in the order the policy declares its questions (a stored outcome's answers come
 * back from DynamoDB in no set order); ids the policy does not declare follow, as given.
 */
function inPolicyOrder(policy: Policy, ids: readonly string[]): string[] {
  const order = policy.questions.map((question) => question.id);
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  return [...ids].sort((a, b) => rank(a) - rank(b));
}

function describePolicy(policy: Policy): ItemView["policy"] {
  return {
    name: policy.name,
    version: policy.version,
    description: policy.description,
    questions: policy.questions.map((question) => ({
      id: question.id,
      type: question.type,
      instructions: question.instructions,
      threshold: question.threshold,
      fallback: question.fallback,
      options: optionsOf(question),
    })),
    rules: policy.rules.map((rule) => ({
      name: rule.name,
      ...(rule.description === undefined ? {} : { description: rule.description }),
      effect: rule.effect.kind,
    })),
  };
}

function optionsOf(question: Policy["questions"][number]): { label: string; description?: string }[] {
  switch (question.type) {
    case "choice":
      return question.labels.map((label) => {
        const criteria = question.criteria;
        const text = Array.isArray(criteria) ? undefined : criteria[label];
        return text === null || text === undefined ? { label } : { label, description: text };
      });
    case "score":
      return question.labels.map((label, index) => ({ label, description: question.criteria[index] ?? "" }));
    case "noul":
      return question.labels.map((label) => {
        const text = question.criteria?.[label as "true" | "false"];
        return text === undefined ? { label } : { label, description: text };
      });
  }
}
