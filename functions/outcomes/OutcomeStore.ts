import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { type Outcome, OutcomeSchema, type OutcomeStatus } from "../../contract/outcome/OutcomeSchema.js";
import { OUTCOMES_STATUS_INDEX } from "../../contract/outcome/outcomesTableKeys.js";
import type { Deadline } from "../shared/Deadline.js";
import type { RetryEvent, RetryPolicy } from "../shared/RetryPolicy.js";
import { boundOutcomeSize, jsonBytes, minimalRejectedOutcome } from "./boundOutcomeSize.js";
import { classifyStoreError } from "./classifyStoreError.js";
import { OutcomeAlreadyRecordedError, OutcomeStoreError } from "./errors.js";

/** Options of an {@link OutcomeStore}. */
export interface OutcomeStoreOptions {
  /** A document client; its SDK retries should be off (`maxAttempts: 1`), the policy retries. */
  client: DynamoDBDocumentClient;
  /** The outcomes table (see `outcomesTableDefinition`). */
  tableName: string;
  /** The retry policy for writes. */
  retry: RetryPolicy;
}

/** What {@link OutcomeStore.record} did. */
export type RecordResult =
  | { recorded: true; outcome: Outcome }
  | { recorded: false; existing: Outcome | Record<string, unknown> | undefined };

/** One page of {@link OutcomeStore.listByStatus}. */
export interface OutcomePage {
  items: Outcome[];
  /** Pass back as `after` for the next page; absent on the last. */
  next?: Record<string, unknown>;
}

/**
 * The outcomes table: write-once outcomes keyed by (policy, id), and the review query.
 *
 * Writes carry `attribute_not_exists(id)`, so a redelivered or duplicate message never creates a
 * second or different outcome; DynamoDB's `ConditionalCheckFailedException` is translated into
 * {@link OutcomeAlreadyRecordedError} carrying the stored item (`ReturnValuesOnConditionCheckFailure:
 * ALL_OLD` returns it in attribute-value form even through the document client: unmarshalled here).
 */
export class OutcomeStore {
  readonly tableName: string;
  readonly #client: DynamoDBDocumentClient;
  readonly #retry: RetryPolicy;

  constructor(options: OutcomeStoreOptions) {
    this.#client = options.client;
    this.tableName = options.tableName;
    this.#retry = options.retry;
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

  async #write(
    item: Outcome,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<void> {
    await this.#retry.run(
      async () => {
        try {
          await this.#client.send(
            new PutCommand({
              TableName: this.tableName,
              Item: item,
              ConditionExpression: "attribute_not_exists(#id)",
              ExpressionAttributeNames: { "#id": "id" },
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            }),
          );
        } catch (error) {
          if ((error as { name?: unknown }).name === "ConditionalCheckFailedException") {
            const raw = (error as { Item?: Record<string, AttributeValue> }).Item;
            throw new OutcomeAlreadyRecordedError(item.policy, item.id, raw && parseStored(unmarshall(raw)), {
              cause: error,
            });
          }
          throw classifyStoreError(error, this.tableName);
        }
      },
      { deadline: options.deadline, ...(options.onRetry ? { onRetry: options.onRetry } : {}) },
    );
  }

  /**
   * Like {@link put}, but an existing outcome is a result rather than an error (a duplicate reports
   * success: the first outcome stands).
   */
  async record(
    outcome: Outcome,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<RecordResult> {
    try {
      return { recorded: true, outcome: await this.put(outcome, options) };
    } catch (error) {
      if (error instanceof OutcomeAlreadyRecordedError) return { recorded: false, existing: error.existing };
      throw error;
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

function parseStored(item: Record<string, unknown>): Outcome | Record<string, unknown> {
  const parsed = OutcomeSchema.safeParse(item);
  return parsed.success ? parsed.data : item;
}
