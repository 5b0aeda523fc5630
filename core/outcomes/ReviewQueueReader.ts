import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from "@aws-sdk/lib-dynamodb";
import { type StoredOutcome, StoredOutcomeSchema } from "../../contract/outcome/OutcomeSchema.js";
import { OUTCOMES_STATUS_INDEX, OUTCOMES_TABLE_KEYS } from "../../contract/outcome/outcomesTableKeys.js";
import { queryPages } from "../common/queryPages.js";
import { errorNameOf } from "../common/tableErrorHint.js";
import { OutcomesTableError } from "./errors.js";

/** Options of {@link ReviewQueueReader}. */
export interface ReviewQueueReaderOptions {
  /** A document client (see `createOutcomesClient`). */
  client: DynamoDBDocumentClient;
  /** The outcomes table's name. */
  tableName: string;
}

/** Where a reading of a by-status partition stands: after the index entry (`updated_at`, `id`). */
export interface StatusIndexPosition {
  updatedAt: string;
  id: string;
}

/** One entry of a by-status partition as read: its index key, and the outcome when the schema knows it. */
export interface StatusIndexEntry extends StatusIndexPosition {
  /** Absent for an item the stored outcome schema does not know (written by a newer version). */
  outcome?: StoredOutcome;
}

/** What one Query of a by-status partition gave. */
export interface StatusIndexPage {
  entries: StatusIndexEntry[];
  /** Where the next page starts; absent when the partition (or the range) has no more. */
  last?: StatusIndexPosition;
  /** Index entries DynamoDB read for it (`ScannedCount`), at least 1: a page of none still costs a call. */
  read: number;
}

/** Which page of a by-status partition {@link ReviewQueueReader.statusPage} reads. */
export interface StatusPageQuery {
  /** Entries at most (DynamoDB's `Limit`), at least 1. */
  limit: number;
  /** Continue after this entry (a previous page's `last`, or a cursor's position). */
  after?: StatusIndexPosition;
  /** Only entries with `updated_at` below `at` (at most `at` when `inclusive`). */
  upper?: { at: string; inclusive: boolean };
  /** Only entries with `updated_at` at least this. */
  lower?: string;
}

/**
 * The review console's reads of the outcomes table: the by-status index partitions the review
 * queue is made of (`<policy>#fallback`, `<policy>#audit`), one Query page at a time newest
 * first, and a policy's outcomes for its pictures. The orders and cursors of the queue are the
 * console's (`core/review`); the keys, the index and the Queries are this home's. Every page
 * says how many index entries DynamoDB read for it, so the caller can bound a request's cost.
 *
 * @example
 * const reader = new ReviewQueueReader({ client, tableName: "outcomes" });
 * const page = await reader.statusPage("ticket-routing", "ticket-routing#fallback", { limit: 26 });
 */
export class ReviewQueueReader {
  readonly tableName: string;
  readonly #client: DynamoDBDocumentClient;

  constructor(options: ReviewQueueReaderOptions) {
    this.#client = options.client;
    this.tableName = options.tableName;
  }

  /**
   * One page of the by-status partition `partition` (of `policy`'s items), newest first, within
   * the query's range. An exclusive upper end that a lower end also bounds is read as `BETWEEN`
   * (DynamoDB takes one condition on a sort key): entries at the upper end are read, counted in
   * `read` and left out of `entries`.
   * @throws OutcomesTableError when DynamoDB fails.
   */
  async statusPage(policy: string, partition: string, query: StatusPageQuery): Promise<StatusIndexPage> {
    const names: Record<string, string> = { "#pk": OUTCOMES_STATUS_INDEX.partition };
    const values: Record<string, unknown> = { ":pk": partition };
    let condition = "#pk = :pk";
    const { upper, lower } = query;
    if (upper !== undefined || lower !== undefined) names["#sk"] = OUTCOMES_STATUS_INDEX.sort;
    if (lower !== undefined && upper !== undefined) {
      condition += " AND #sk BETWEEN :lo AND :hi";
      values[":lo"] = lower;
      values[":hi"] = upper.at;
    } else if (upper !== undefined) {
      condition += ` AND #sk ${upper.inclusive ? "<=" : "<"} :hi`;
      values[":hi"] = upper.at;
    } else if (lower !== undefined) {
      condition += " AND #sk >= :lo";
      values[":lo"] = lower;
    }
    const input: QueryCommandInput = {
      TableName: this.tableName,
      IndexName: OUTCOMES_STATUS_INDEX.name,
      KeyConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: Math.max(1, Math.floor(query.limit)),
      ...(query.after === undefined
        ? {}
        : {
            ExclusiveStartKey: {
              [OUTCOMES_STATUS_INDEX.partition]: partition,
              [OUTCOMES_STATUS_INDEX.sort]: query.after.updatedAt,
              [OUTCOMES_TABLE_KEYS.partition]: policy,
              [OUTCOMES_TABLE_KEYS.sort]: query.after.id,
            },
          }),
    };
    let answer: QueryCommandOutput;
    try {
      answer = await this.#client.send(new QueryCommand(input));
    } catch (error) {
      throw new OutcomesTableError(this.tableName, errorNameOf(error), { cause: error });
    }
    const items = answer.Items ?? [];
    const entries = items
      .map((raw): StatusIndexEntry => {
        const parsed = StoredOutcomeSchema.safeParse(raw);
        return {
          updatedAt: String(raw[OUTCOMES_STATUS_INDEX.sort]),
          id: String(raw[OUTCOMES_TABLE_KEYS.sort]),
          ...(parsed.success ? { outcome: parsed.data } : {}),
        };
      })
      .filter((entry) => upper === undefined || upper.inclusive || entry.updatedAt < upper.at);
    const last = answer.LastEvaluatedKey;
    return {
      entries,
      ...(last === undefined
        ? {}
        : {
            last: {
              updatedAt: String(last[OUTCOMES_STATUS_INDEX.sort]),
              id: String(last[OUTCOMES_TABLE_KEYS.sort]),
            },
          }),
      read: Math.max(1, answer.ScannedCount ?? items.length),
    };
  }

  /**
   * Up to `limit` outcomes of a policy, in the table's order (by id), for its pictures; items the
   * stored outcome schema does not read are left out.
   * @throws OutcomesTableError when DynamoDB fails.
   */
  async policyOutcomes(policy: string, limit: number): Promise<StoredOutcome[]> {
    const outcomes: StoredOutcome[] = [];
    for await (const items of queryPages(
      this.#client,
      {
        TableName: this.tableName,
        KeyConditionExpression: "#pk = :pk",
        ExpressionAttributeNames: { "#pk": OUTCOMES_TABLE_KEYS.partition },
        ExpressionAttributeValues: { ":pk": policy },
      },
      (error) => new OutcomesTableError(this.tableName, errorNameOf(error), { cause: error }),
    )) {
      for (const raw of items) {
        const parsed = StoredOutcomeSchema.safeParse(raw);
        if (parsed.success) outcomes.push(parsed.data);
      }
      if (outcomes.length >= limit) break;
    }
    return outcomes.slice(0, limit);
  }

  /**
   * How many entries the given by-status partitions (`<policy>#<status>`) hold, counted with
   * `Select: COUNT` (no item comes back, though DynamoDB reads them), stopping once `bound` are
   * counted (then `more`: at least that many).
   * @throws OutcomesTableError
   */
  async countEntries(
    partitions: readonly string[],
    bound: number,
  ): Promise<{ count: number; more: boolean }> {
    let count = 0;
    for (const partition of partitions) {
      let start: Record<string, unknown> | undefined;
      do {
        let answer: QueryCommandOutput;
        try {
          answer = await this.#client.send(
            new QueryCommand({
              TableName: this.tableName,
              IndexName: OUTCOMES_STATUS_INDEX.name,
              KeyConditionExpression: "#pk = :pk",
              ExpressionAttributeNames: { "#pk": OUTCOMES_STATUS_INDEX.partition },
              ExpressionAttributeValues: { ":pk": partition },
              Select: "COUNT",
              Limit: bound - count + 1,
              ExclusiveStartKey: start,
            }),
          );
        } catch (error) {
          throw new OutcomesTableError(this.tableName, errorNameOf(error), { cause: error });
        }
        count += answer.Count ?? 0;
        // One past the bound: at least `bound`, and the count stops.
        if (count > bound) return { count: bound, more: true };
        start = answer.LastEvaluatedKey;
      } while (start !== undefined);
    }
    return { count, more: false };
  }
}
