import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { type Outcome, OutcomeSchema, type OutcomeStatus } from "../../contract/outcome/OutcomeSchema.js";
import { OUTCOMES_STATUS_INDEX } from "../../contract/outcome/outcomesTableKeys.js";
import type { Deadline } from "../common/Deadline.js";
import type { RetryEvent, RetryPolicy } from "../common/RetryPolicy.js";
import { boundOutcomeSize, jsonBytes, minimalRejectedOutcome } from "./boundOutcomeSize.js";
import { classifyStoreError } from "./classifyStoreError.js";
import { OutcomeAlreadyRecordedError, OutcomeStoreError } from "./errors.js";
import { NO_PERSONS_REVIEW_CONDITION } from "./hasPersonsReview.js";
import { readSupersedeMarker } from "./readSupersedeMarker.js";
import { payloadPreview } from "./summarizePayload.js";
import { conflictsHaveRoom, resolveStanding } from "./supersedeOutcome.js";
import type { RecordOptions, RecordResult } from "./types.js";
import { putOutcomeOnce, translateOutcomeWriteError } from "./writeOnce.js";

/** Rounds of read-and-write-conditionally a supersede or a conflict record takes at most against concurrent writers. */
const STANDING_ROUNDS = 3;

/** Options of an {@link OutcomeStore}. */
export interface OutcomeStoreOptions {
  /** A document client; its SDK retries should be off (`maxAttempts: 1`), the policy retries. */
  client: DynamoDBDocumentClient;
  /** The outcomes table (see `outcomesTableDefinition`). */
  tableName: string;
  /** The retry policy for writes. */
  retry: RetryPolicy;
  /**
   * Where an outcome of a job's line (`source.job_id` and `source.line` set) is written instead:
   * in one transaction with the line's count (core/jobs `JobLedger`). Default: none — such
   * outcomes are written as any other, and no job counts them.
   */
  jobs?: JobLineWriter;
}

/** Writes an outcome of a job's line together with its count (core/jobs `JobLedger`). */
export interface JobLineWriter {
  /** Same contract as {@link OutcomeStore.put}'s write: {@link OutcomeAlreadyRecordedError} when one stands. */
  recordOutcome(
    outcome: Outcome,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<Outcome>;
}

/** One page of {@link OutcomeStore.listByStatus}. */
export interface OutcomePage {
  items: Outcome[];
  /** Pass back as `after` for the next page; absent on the last. */
  next?: Record<string, unknown>;
}

/**
 * The outcomes table: write-once outcomes keyed by (policy, id), and the review query.
 *
 * Writes carry `attribute_not_exists(id)` ({@link putOutcomeOnce}), so a redelivered or duplicate
 * message never creates a second or different outcome; DynamoDB's `ConditionalCheckFailedException`
 * is translated into {@link OutcomeAlreadyRecordedError} carrying the stored item
 * ({@link translateOutcomeWriteError}).
 */
export class OutcomeStore {
  readonly tableName: string;
  readonly #client: DynamoDBDocumentClient;
  readonly #retry: RetryPolicy;
  readonly #jobs: JobLineWriter | undefined;

  constructor(options: OutcomeStoreOptions) {
    this.#client = options.client;
    this.tableName = options.tableName;
    this.#retry = options.retry;
    this.#jobs = options.jobs;
  }

  /**
   * Writes an outcome unless one exists for its (policy, id). Validated against {@link OutcomeSchema}
   * and bounded in size first ({@link boundOutcomeSize}: it fits the table by construction). Should
   * the table still refuse it as invalid (`ValidationException`), a minimal `rejected` outcome
   * ({@link minimalRejectedOutcome}: key, reason, hashes) is written instead, so that the item
   * ends with a reason rather than its record going back to the queue until it is dead-lettered.
   *
   * @returns the outcome as written (bounded, or the minimal one).
   * @throws OutcomeAlreadyRecordedError when one exists (carrying it).
   * @throws RetriesExhaustedError / DeadlineExceededError (transient) when DynamoDB stays unavailable.
   * @throws OutcomesTableConfigurationError when the table is missing or may not be written (the
   *   record goes back: a person must fix the configuration).
   * @throws OutcomeStoreError when DynamoDB refuses the write for another reason retrying will not fix.
   */
  async put(
    outcome: Outcome,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<Outcome> {
    const item = boundOutcomeSize(OutcomeSchema.parse(outcome));
    try {
      await this.#write(item, options);
      return item;
    } catch (error) {
      if (!(error instanceof OutcomeStoreError && error.errorName === "ValidationException")) throw error;
      const detail = error.cause instanceof Error ? error.cause.message : error.message;
      const minimal = minimalRejectedOutcome(
        item,
        `the outcomes table refused the outcome (${item.status}, ${jsonBytes(item)} bytes of JSON) as invalid: ${detail}; only its identity and hashes are kept`,
      );
      await this.#write(minimal, options);
      return minimal;
    }
  }

  /**
   * Puts an item: when none stands for its key, or (`replacing`) over the one whose `updated_at`
   * was read — a supersede never replaces a version it did not read — and, unless
   * `replaceReviews`, only while no person reviewed it ({@link NO_PERSONS_REVIEW_CONDITION}: the
   * guard is the write's own condition, so a review that lands between the read and the write
   * still stands). A job line's outcome goes through the ledger, which writes only where none
   * stands (`attribute_not_exists`): it never replaces one.
   */
  async #write(
    item: Outcome,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
    replacing?: { updatedAt: string; replaceReviews: boolean },
  ): Promise<void> {
    if (this.#jobs !== undefined && item.source.job_id !== undefined && item.source.line !== undefined) {
      await this.#jobs.recordOutcome(item, options);
      return;
    }
    await this.#retry.run(
      async () => {
        if (replacing === undefined) {
          await putOutcomeOnce(this.#client, this.tableName, item);
          return;
        }
        try {
          await this.#client.send(
            new PutCommand({
              TableName: this.tableName,
              Item: item,
              ...(replacing.replaceReviews
                ? {
                    ConditionExpression: "#u = :read",
                    ExpressionAttributeNames: { "#u": "updated_at" },
                    ExpressionAttributeValues: { ":read": replacing.updatedAt },
                  }
                : {
                    ConditionExpression: `#u = :read AND ${NO_PERSONS_REVIEW_CONDITION.expression}`,
                    ExpressionAttributeNames: { "#u": "updated_at", ...NO_PERSONS_REVIEW_CONDITION.names },
                    ExpressionAttributeValues: {
                      ":read": replacing.updatedAt,
                      ...NO_PERSONS_REVIEW_CONDITION.values,
                    },
                  }),
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            }),
          );
        } catch (error) {
          throw translateOutcomeWriteError(error, this.tableName, item.policy, item.id);
        }
      },
      { deadline: options.deadline, ...(options.onRetry ? { onRetry: options.onRetry } : {}) },
    );
  }

  /**
   * Like {@link put}, but an existing outcome is a result rather than an error (a duplicate reports
   * success: the first outcome stands).
   */
  async record(outcome: Outcome, options: RecordOptions): Promise<RecordResult> {
    let existing: Outcome | Record<string, unknown> | undefined;
    try {
      return { recorded: true, outcome: await this.put(outcome, options) };
    } catch (error) {
      if (!(error instanceof OutcomeAlreadyRecordedError)) throw error;
      existing = error.existing;
    }
    return await this.#resolve(outcome, existing, options);
  }

  /**
   * An outcome stands for the item: supersede it (when the marker asks and the version matches),
   * record a payload conflict on it, or leave it (a duplicate) — see `resolveStanding`. Each write
   * is conditional on the `updated_at` (and the conflicts) it read; when another writer got there
   * first, the item is read again and decided again, a few rounds at most.
   */
  async #resolve(
    outcome: Outcome,
    first: Outcome | Record<string, unknown> | undefined,
    options: RecordOptions,
  ): Promise<RecordResult> {
    let existing = first;
    const text = outcome.work_item;
    for (let round = 0; round < STANDING_ROUNDS && existing !== undefined; round += 1) {
      const standing = existing as Outcome;
      const action = resolveStanding(outcome, existing, {
        ...(options.supersede !== undefined ? { supersede: options.supersede } : {}),
        ...(text !== undefined ? { conflictPreview: payloadPreview(text) } : {}),
        ...(outcome.work_item_bytes !== undefined ? { conflictBytes: outcome.work_item_bytes } : {}),
      });
      if (action.action === "duplicate") {
        return {
          recorded: false,
          existing,
          ...(action.refused !== undefined ? { refused: action.refused } : {}),
        };
      }
      try {
        if (action.action === "supersede") {
          const item = boundOutcomeSize(OutcomeSchema.parse(action.item));
          await this.#write(item, options, {
            updatedAt: standing.updated_at,
            replaceReviews:
              options.supersede !== undefined && readSupersedeMarker(options.supersede).replaceReviews,
          });
          return { recorded: true, outcome: item, superseded: standing.updated_at };
        }
        await this.#recordConflict(standing, action.conflict, options);
        return { recorded: false, existing, conflict: true };
      } catch (error) {
        if (!(error instanceof OutcomeAlreadyRecordedError)) throw error;
        existing = error.existing ?? (await this.#getRaw(outcome.policy, outcome.id));
      }
    }
    return {
      recorded: false,
      existing,
      refused: `the outcome kept changing while it was being ${options.supersede !== undefined ? "superseded" : "compared"} (${STANDING_ROUNDS} rounds)`,
    };
  }

  /**
   * Records a conflicting payload on the standing outcome without changing it otherwise (its
   * `updated_at`, the review index's sort key, stays): appended to `conflicts` while there is room,
   * counted in `conflict_count` always. Conditional on the `updated_at` and the number of conflicts
   * read, so a concurrent supersede or conflict makes it read again.
   */
  async #recordConflict(
    standing: Outcome,
    conflict: NonNullable<Outcome["conflicts"]>[number],
    options: RecordOptions,
  ): Promise<void> {
    const kept = standing.conflicts?.length ?? 0;
    const append = conflictsHaveRoom(standing);
    await this.#retry.run(
      async () => {
        try {
          await this.#client.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: { policy: standing.policy, id: standing.id },
              UpdateExpression: append
                ? "SET #c = list_append(if_not_exists(#c, :empty), :one) ADD #n :inc"
                : "ADD #n :inc",
              ConditionExpression:
                kept === 0 ? "#u = :read AND attribute_not_exists(#c)" : "#u = :read AND size(#c) = :kept",
              ExpressionAttributeNames: { "#u": "updated_at", "#c": "conflicts", "#n": "conflict_count" },
              ExpressionAttributeValues: {
                ":read": standing.updated_at,
                ":inc": 1,
                ...(append ? { ":empty": [], ":one": [conflict] } : {}),
                ...(kept === 0 ? {} : { ":kept": kept }),
              },
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            }),
          );
        } catch (error) {
          throw translateOutcomeWriteError(error, this.tableName, standing.policy, standing.id);
        }
      },
      { deadline: options.deadline, ...(options.onRetry ? { onRetry: options.onRetry } : {}) },
    );
  }

  /** The stored item of (policy, id) as it is (strongly consistent), for a round after a lost race. */
  async #getRaw(policy: string, id: string): Promise<Record<string, unknown> | undefined> {
    try {
      const output = await this.#client.send(
        new GetCommand({ TableName: this.tableName, Key: { policy, id }, ConsistentRead: true }),
      );
      return output.Item;
    } catch (error) {
      throw classifyStoreError(error, this.tableName);
    }
  }

  /** The outcome of (policy, id), strongly consistent; undefined when none. */
  async get(policy: string, id: string): Promise<Outcome | undefined> {
    try {
      const output = await this.#client.send(
        new GetCommand({ TableName: this.tableName, Key: { policy, id }, ConsistentRead: true }),
      );
      return output.Item === undefined ? undefined : OutcomeSchema.parse(output.Item);
    } catch (error) {
      throw classifyStoreError(error, this.tableName);
    }
  }

  /**
   * Outcomes of one policy with one status, newest first (the human review queue), through the
   * {@link OUTCOMES_STATUS_INDEX}.
   */
  async listByStatus(
    policy: string,
    status: OutcomeStatus,
    options: { limit?: number; after?: Record<string, unknown> } = {},
  ): Promise<OutcomePage> {
    try {
      const output = await this.#client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: OUTCOMES_STATUS_INDEX.name,
          KeyConditionExpression: "#pk = :pk",
          ExpressionAttributeNames: { "#pk": OUTCOMES_STATUS_INDEX.partition },
          ExpressionAttributeValues: { ":pk": `${policy}#${status}` },
          ScanIndexForward: false,
          ...(options.limit !== undefined ? { Limit: options.limit } : {}),
          ...(options.after !== undefined ? { ExclusiveStartKey: options.after } : {}),
        }),
      );
      const items = (output.Items ?? []).map((item) => OutcomeSchema.parse(item));
      return output.LastEvaluatedKey === undefined ? { items } : { items, next: output.LastEvaluatedKey };
    } catch (error) {
      throw classifyStoreError(error, this.tableName);
    }
  }
}
