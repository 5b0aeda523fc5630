import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  FAILURE_REASON_CHARS,
  FAILURE_RECORD_KIND,
  FAILURE_RECORD_RETENTION_SECONDS,
  FAILURE_RECORD_TTL_ATTRIBUTE,
  type FailureClass,
  type FailureRecord,
  FailureRecordSchema,
  failureKeyOfItem,
  failureKeyOfMessage,
} from "../../contract/failures/FailureRecordSchema.js";
import { type Clock, systemClock } from "../common/Clock.js";
import { ConfigurationError, TransientError } from "../common/errors.js";
import { truncateText } from "../common/truncateText.js";

/** Options of a {@link FailureRecordStore}. */
export interface FailureRecordStoreOptions {
  /** A document client on the outcomes table's DynamoDB. */
  client: DynamoDBDocumentClient;
  /** The outcomes table. */
  tableName: string;
  /** Default: the system clock. */
  clock?: Clock;
}

/** One record given back, as the decide function saw it. */
export interface RecordFailure {
  /** The SQS message id of the record. */
  messageId: string;
  /** The item's policy and id, when its body could be read that far. */
  item?: { policy: string; id: string };
  /** Why it was given back (an error, usually). */
  reason: unknown;
  /** The message's `ApproximateReceiveCount`. */
  attempts: number;
}

/** Options of one write or read. */
export interface FailureRecordCallOptions {
  /** Aborts the requests (the caller's remaining time). */
  signal?: AbortSignal;
}

/**
 * The failure records in the outcomes table (`contract/failures`): written by the decide
 * function for every record it gives back, read by `decisions dlq list` and `decisions outcomes
 * show`. A write updates both copies (by message id, and by item when known): the last reason,
 * error, class, attempts and time are set, the failure count goes up by one and the first failure's
 * time is kept. One attempt, no retry: a failure record explains, it decides nothing, and the
 * record goes back to SQS whether or not it was written.
 *
 * @example
 * const store = new FailureRecordStore({ client, tableName: "outcomes" });
 * await store.record({ messageId, item: { policy, id }, reason: error, attempts: 2 });
 * const last = await store.byItem(policy, id);
 */
export class FailureRecordStore {
  readonly tableName: string;
  readonly #client: DynamoDBDocumentClient;
  readonly #clock: Clock;

  constructor(options: FailureRecordStoreOptions) {
    this.#client = options.client;
    this.tableName = options.tableName;
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Records one failure (both copies, in parallel).
   * @throws the DynamoDB client's error when a copy could not be written.
   */
  async record(failure: RecordFailure, options: FailureRecordCallOptions = {}): Promise<void> {
    const now = this.#clock.now();
    const at = new Date(now).toISOString();
    const values: Record<string, unknown> = {
      ":kind": FAILURE_RECORD_KIND,
      ":message": failure.messageId,
      ":error": failure.reason instanceof Error ? failure.reason.name : typeof failure.reason,
      ":class": failureClassOf(failure.reason),
      ":reason": truncateText(reasonOf(failure.reason), FAILURE_REASON_CHARS),
      ":attempts": failure.attempts,
      ":one": 1,
      ":at": at,
      ":expires": Math.floor(now / 1000) + FAILURE_RECORD_RETENTION_SECONDS,
    };
    const sets = [
      "record_kind = :kind",
      "message_id = :message",
      "#error = :error",
      "failure_class = :class",
      "reason = :reason",
      "attempts = :attempts",
      "first_failed_at = if_not_exists(first_failed_at, :at)",
      "last_failed_at = :at",
      "#expires = :expires",
    ];
    if (failure.item !== undefined) {
      values[":policy"] = failure.item.policy;
      values[":item"] = failure.item.id;
      sets.push("item_policy = :policy", "item_id = :item");
    }
    const keys = [
      failureKeyOfMessage(failure.messageId),
      ...(failure.item ? [failureKeyOfItem(failure.item.policy, failure.item.id)] : []),
    ];
    await Promise.all(
      keys.map((key) =>
        this.#client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: `SET ${sets.join(", ")} ADD failures :one`,
            ExpressionAttributeNames: { "#error": "error", "#expires": FAILURE_RECORD_TTL_ATTRIBUTE },
            ExpressionAttributeValues: values,
          }),
          options.signal ? { abortSignal: options.signal } : {},
        ),
      ),
    );
  }

  /** The failure record of an SQS message; undefined when none. */
  async byMessage(
    messageId: string,
    options: FailureRecordCallOptions = {},
  ): Promise<FailureRecord | undefined> {
    return this.#get(failureKeyOfMessage(messageId), options);
  }

  /** The failure record of a work item; undefined when none. */
  async byItem(
    policy: string,
    id: string,
    options: FailureRecordCallOptions = {},
  ): Promise<FailureRecord | undefined> {
    return this.#get(failureKeyOfItem(policy, id), options);
  }

  async #get(
    key: { policy: string; id: string },
    options: FailureRecordCallOptions,
  ): Promise<FailureRecord | undefined> {
    const output = await this.#client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
      options.signal ? { abortSignal: options.signal } : {},
    );
    if (output.Item === undefined) return undefined;
    const parsed = FailureRecordSchema.safeParse(output.Item);
    return parsed.success ? parsed.data : undefined;
  }
}

/** Who must act on a failure (docs/failures.md): the configuration, nobody for now, or unknown. */
export function failureClassOf(reason: unknown): FailureClass {
  if (reason instanceof ConfigurationError) return "configuration";
  if (reason instanceof TransientError) return "transient";
  return "other";
}

function reasonOf(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name;
  return reason === undefined ? "no reason recorded" : String(reason);
}
