import { type DynamoDBDocumentClient, GetCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import {
  AUDIT_QUEUE,
  STORED_OUTCOME_STATUSES,
  type StoredOutcome,
  type StoredOutcomeStatus,
} from "../../contract/outcome/OutcomeSchema.js";
import { OUTCOMES_STATUS_INDEX, OUTCOMES_TABLE_KEYS } from "../../contract/outcome/outcomesTableKeys.js";
import { queryPages } from "../common/queryPages.js";
import { errorNameOf } from "../common/tableErrorHint.js";
import { OutcomesTableError } from "./errors.js";
import { readStoredOutcome } from "./readStoredOutcome.js";

/** Options of {@link OutcomesReader}. */
export interface OutcomesReaderOptions {
  /** A document client (see `createOutcomesClient`). */
  client: DynamoDBDocumentClient;
  /** The outcomes table's name. */
  tableName: string;
}

/**
 * Reads the outcomes table the way decision owners look at it: one outcome, the newest outcomes
 * of a policy (by status through the `by-status` index, or across every status), and every
 * outcome of a policy page by page for an export. Items are validated against the stored outcome
 * schema as they are read.
 *
 * @example
 * const table = new OutcomesReader({ client, tableName: "outcomes" });
 * const waiting = await table.newest("ticket-routing", { status: "fallback", limit: 20 });
 */
export class OutcomesReader {
  readonly tableName: string;
  readonly #client: DynamoDBDocumentClient;

  constructor(options: OutcomesReaderOptions) {
    this.#client = options.client;
    this.tableName = options.tableName;
  }

  /**
   * The outcome of (policy, id), strongly consistent; undefined when none.
   * @throws OutcomesTableError, MalformedOutcomeError
   */
  async get(policy: string, id: string): Promise<StoredOutcome | undefined> {
    const output = await this.#send(() =>
      this.#client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { [OUTCOMES_TABLE_KEYS.partition]: policy, [OUTCOMES_TABLE_KEYS.sort]: id },
          ConsistentRead: true,
        }),
      ),
    );
    return output.Item === undefined ? undefined : readStoredOutcome(output.Item, this.tableName);
  }

  /**
   * The newest `limit` outcomes of a policy (by `updated_at`, newest first): of one status through
   * the `by-status` index, or, without a status, the newest of every status merged.
   * @throws OutcomesTableError, MalformedOutcomeError
   */
  async newest(
    policy: string,
    options: { status?: StoredOutcomeStatus; limit: number },
  ): Promise<StoredOutcome[]> {
    const statuses = options.status === undefined ? STORED_OUTCOME_STATUSES : partitionsOf(options.status);
    const lists = await Promise.all(
      statuses.map(async (status) => {
        const items: StoredOutcome[] = [];
        for await (const page of this.#pages(statusQuery(this.tableName, policy, status), options.limit)) {
          items.push(...page);
          if (items.length >= options.limit) break;
        }
        return items;
      }),
    );
    return lists
      .flat()
      .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0))
      .slice(0, options.limit);
  }

  /**
   * Every outcome of a policy (of one status: newest first through the index, per partition; of
   * all: in id order from the table), one page at a time. `partitions` reads those by-status
   * index partitions (`<policy>#<each>`, e.g. `audit`) instead of a status.
   * @throws OutcomesTableError, MalformedOutcomeError
   */
  async *all(
    policy: string,
    options: { status?: StoredOutcomeStatus; partitions?: readonly string[] } = {},
  ): AsyncGenerator<StoredOutcome[]> {
    const partitions =
      options.partitions ?? (options.status === undefined ? undefined : partitionsOf(options.status));
    if (partitions === undefined) {
      yield* this.#pages({
        TableName: this.tableName,
        KeyConditionExpression: "#pk = :pk",
        ExpressionAttributeNames: { "#pk": OUTCOMES_TABLE_KEYS.partition },
        ExpressionAttributeValues: { ":pk": policy },
      });
      return;
    }
    for (const partition of partitions) yield* this.#pages(statusQuery(this.tableName, policy, partition));
  }

  /**
   * Every outcome of a policy with one status whose `updated_at` is within [since, until] (ISO-8601
   * UTC, compared as text as the index sorts them), newest first, one page at a time — through the
   * `by-status` index's sort key, so only those items are read. `status` may also be the audit
   * partition ({@link AUDIT_QUEUE}: `decided` items waiting for an audit review).
   * @throws OutcomesTableError, MalformedOutcomeError
   */
  async *inRange(
    policy: string,
    status: StoredOutcomeStatus | typeof AUDIT_QUEUE,
    range: { since: string; until: string },
  ): AsyncGenerator<StoredOutcome[]> {
    const query = statusQuery(this.tableName, policy, status);
    yield* this.#pages({
      ...query,
      KeyConditionExpression: "#pk = :pk AND #sk BETWEEN :since AND :until",
      ExpressionAttributeNames: { ...query.ExpressionAttributeNames, "#sk": OUTCOMES_STATUS_INDEX.sort },
      ExpressionAttributeValues: {
        ...query.ExpressionAttributeValues,
        ":since": range.since,
        ":until": range.until,
      },
    });
  }

  /**
   * The newest `limit` outcomes of a policy on which a payload conflict was recorded (a different
   * work item came under their id). Reads the policy's partition with a filter: every outcome of
   * the policy is read (not only the conflicts), page by page, until the end.
   * @throws OutcomesTableError, MalformedOutcomeError
   */
  async withConflicts(policy: string, options: { limit: number }): Promise<StoredOutcome[]> {
    const found: StoredOutcome[] = [];
    for await (const page of this.#pages({
      TableName: this.tableName,
      KeyConditionExpression: "#pk = :pk",
      FilterExpression: "attribute_exists(#conflicts)",
      ExpressionAttributeNames: { "#pk": OUTCOMES_TABLE_KEYS.partition, "#conflicts": "conflict_count" },
      ExpressionAttributeValues: { ":pk": policy },
    })) {
      found.push(...page);
    }
    return found
      .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0))
      .slice(0, options.limit);
  }

  async *#pages(query: QueryCommandInput, limit?: number): AsyncGenerator<StoredOutcome[]> {
    const pages = queryPages(
      this.#client,
      { ...query, ...(limit !== undefined ? { Limit: limit } : {}) },
      (error) => new OutcomesTableError(this.tableName, errorNameOf(error), { cause: error }),
    );
    for await (const items of pages) yield items.map((item) => readStoredOutcome(item, this.tableName));
  }

  async #send<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new OutcomesTableError(this.tableName, errorNameOf(error), { cause: error });
    }
  }
}

/**
 * The by-status index partitions holding a status: `decided` items the audit sent to review wait
 * under `<policy>#audit` with their status unchanged.
 */
function partitionsOf(status: StoredOutcomeStatus): string[] {
  return status === "decided" ? [status, AUDIT_QUEUE] : [status];
}

function statusQuery(tableName: string, policy: string, status: string): QueryCommandInput {
  return {
    TableName: tableName,
    IndexName: OUTCOMES_STATUS_INDEX.name,
    KeyConditionExpression: "#pk = :pk",
    ExpressionAttributeNames: { "#pk": OUTCOMES_STATUS_INDEX.partition },
    ExpressionAttributeValues: { ":pk": `${policy}#${status}` },
    ScanIndexForward: false,
  };
}
