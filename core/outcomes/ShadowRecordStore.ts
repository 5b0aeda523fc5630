import { type DynamoDBDocumentClient, PutCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { OUTCOMES_TABLE_KEYS } from "../../contract/outcome/outcomesTableKeys.js";
import {
  SHADOW_FAILURE_REASON_CHARS,
  SHADOW_RECORD_KIND,
  SHADOW_RECORD_RETENTION_SECONDS,
  type ShadowCandidate,
  type ShadowRecord,
  ShadowRecordSchema,
  type ShadowResult,
  shadowKeyOf,
  shadowPartitionOf,
} from "../../contract/outcome/ShadowRecordSchema.js";
import { type Clock, systemClock } from "../common/Clock.js";
import { queryPages } from "../common/queryPages.js";
import { errorNameOf } from "../common/tableErrorHint.js";
import { truncateText } from "../common/truncateText.js";
import { boundShadowRecordSize } from "./boundShadowRecordSize.js";
import { MalformedShadowRecordError, OutcomesTableError } from "./errors.js";

/** Options of a {@link ShadowRecordStore}. */
export interface ShadowRecordStoreOptions {
  /** A document client on the outcomes table's DynamoDB. */
  client: DynamoDBDocumentClient;
  /** The outcomes table. */
  tableName: string;
  /** Default: the system clock (`decided_at` and the expiry). */
  clock?: Clock;
  /** Seconds a record is kept after it is written. Default {@link SHADOW_RECORD_RETENTION_SECONDS}. */
  retentionSeconds?: number;
}

/** What the decide function knows of one candidate's answer for one item. */
export interface ShadowRecordInput {
  /** The item's policy and id (the live outcome's key). */
  policy: string;
  id: string;
  candidate: ShadowCandidate;
  /** What the candidate would have decided; or `failure` when it gave nothing. */
  result?: ShadowResult;
  /** Why the candidate gave no result: an error (its class name and message are kept). */
  failure?: unknown;
  /** The live outcome's `updated_at` and status when the candidate was asked. */
  live?: { updatedAt: string; status: string };
  timings?: ShadowRecord["timings"];
  sample?: ShadowRecord["sample"];
}

/** A time range of shadow records (ISO-8601 UTC, compared as text as the sort key is). */
export interface ShadowRange {
  /** From this time on (inclusive). Default: the oldest. */
  since?: string;
  /** Up to this time (inclusive). Default: the newest. */
  until?: string;
  /** Only this candidate's records. Default: every candidate's. */
  candidate?: string;
}

/** Options of one call. */
export interface ShadowCallOptions {
  /** Aborts the request (the caller's own budget for the candidate). */
  signal?: AbortSignal;
}

/**
 * The shadow records in the outcomes table (`contract/outcome/ShadowRecordSchema.ts`): written by
 * the decide function for the sampled groups it asked a candidate about, read by `decisions shadow
 * report`. A write is one PutItem and is never retried here: a shadow record compares, it decides
 * nothing, and its caller must never let its failure touch the live outcome. Records are read in
 * time order, from a time on, one page at a time.
 *
 * @example
 * const shadows = new ShadowRecordStore({ client, tableName: "outcomes" });
 * await shadows.put({ policy, id, candidate: { name: "qwen3-2b" }, result });
 * for await (const page of shadows.list(policy, { since: "2026-12-01T00:00:00Z" })) …
 */
export class ShadowRecordStore {
  readonly tableName: string;
  readonly #client: DynamoDBDocumentClient;
  readonly #clock: Clock;
  readonly #retentionSeconds: number;

  constructor(options: ShadowRecordStoreOptions) {
    this.#client = options.client;
    this.tableName = options.tableName;
    this.#clock = options.clock ?? systemClock;
    this.#retentionSeconds = options.retentionSeconds ?? SHADOW_RECORD_RETENTION_SECONDS;
  }

  /**
   * Writes one shadow record (its distributions cut when it would be larger than an outcome may be)
   * and returns it as stored.
   * @throws MalformedShadowRecordError when the input does not make a valid record (e.g. a candidate
   *   name with `#`, or both or neither of `result` and `failure`).
   * @throws OutcomesTableError when DynamoDB refuses or fails the write.
   */
  async put(input: ShadowRecordInput, options: ShadowCallOptions = {}): Promise<ShadowRecord> {
    const now = this.#clock.now();
    const decidedAt = new Date(now).toISOString();
    const candidate = input.candidate.name;
    const parsed = ShadowRecordSchema.safeParse({
      ...shadowKeyOf(input.policy, decidedAt, candidate, input.id),
      record_kind: SHADOW_RECORD_KIND,
      item_policy: input.policy,
      item_id: input.id,
      ...(input.live ? { live_updated_at: input.live.updatedAt, live_status: input.live.status } : {}),
      candidate: input.candidate,
      ...(input.result !== undefined ? { result: input.result } : {}),
      ...(input.failure !== undefined ? { failure: failureOf(input.failure) } : {}),
      ...(input.timings ? { timings: input.timings } : {}),
      ...(input.sample ? { sample: input.sample } : {}),
      decided_at: decidedAt,
      expires_at: Math.floor(now / 1000) + this.#retentionSeconds,
    });
    if (!parsed.success)
      throw new MalformedShadowRecordError(
        this.tableName,
        `${input.policy}/${input.id}`,
        parsed.error.issues,
      );
    const record = boundShadowRecordSize(parsed.data);
    await this.#send(() =>
      this.#client.send(
        new PutCommand({ TableName: this.tableName, Item: record }),
        options.signal ? { abortSignal: options.signal } : {},
      ),
    );
    return record;
  }

  /**
   * A policy's shadow records in the range, oldest first, one page at a time (every record as
   * written, a redelivered item's twice; see {@link latest}).
   * @throws OutcomesTableError, MalformedShadowRecordError
   */
  async *list(policy: string, range: ShadowRange = {}): AsyncGenerator<ShadowRecord[]> {
    const names: Record<string, string> = {
      "#pk": OUTCOMES_TABLE_KEYS.partition,
      "#kind": "record_kind",
    };
    const values: Record<string, unknown> = { ":pk": shadowPartitionOf(policy), ":kind": SHADOW_RECORD_KIND };
    let condition = "#pk = :pk";
    if (range.since !== undefined || range.until !== undefined) {
      names["#sk"] = OUTCOMES_TABLE_KEYS.sort;
      values[":since"] = range.since === undefined ? "" : isoOf(range.since);
      // Sort keys continue past the time (`#<candidate>#<id>`): the until bound takes them all.
      values[":until"] = `${range.until === undefined ? "9999" : isoOf(range.until)}\uffff`;
      condition += " AND #sk BETWEEN :since AND :until";
    }
    const filters = ["#kind = :kind"];
    if (range.candidate !== undefined) {
      names["#candidate"] = "candidate";
      values[":candidate"] = range.candidate;
      filters.push("#candidate.#name = :candidate");
      names["#name"] = "name";
    }
    const query: QueryCommandInput = {
      TableName: this.tableName,
      KeyConditionExpression: condition,
      FilterExpression: filters.join(" AND "),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    const pages = queryPages(
      this.#client,
      query,
      (error) => new OutcomesTableError(this.tableName, errorNameOf(error), { cause: error }),
    );
    for await (const items of pages) yield items.map((item) => this.#read(item));
  }

  /**
   * The newest shadow record per candidate and item in the range, oldest first: what a comparison
   * reads (a redelivered group may have asked the candidate twice).
   * @throws OutcomesTableError, MalformedShadowRecordError
   */
  async latest(policy: string, range: ShadowRange = {}): Promise<ShadowRecord[]> {
    const newest = new Map<string, ShadowRecord>();
    for await (const page of this.list(policy, range)) {
      // Oldest first: a later record of the same key replaces the earlier one.
      for (const record of page) {
        const key = `${record.candidate.name}\u0000${record.item_id}`;
        newest.delete(key);
        newest.set(key, record);
      }
    }
    return [...newest.values()];
  }

  #read(item: Record<string, unknown>): ShadowRecord {
    const parsed = ShadowRecordSchema.safeParse(item);
    if (!parsed.success)
      throw new MalformedShadowRecordError(this.tableName, `${item.policy}/${item.id}`, parsed.error.issues);
    return parsed.data;
  }

  async #send<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new OutcomesTableError(this.tableName, errorNameOf(error), { cause: error });
    }
  }
}

/** The time as the sort key writes it (`toISOString`), so that text order is time order. */
function isoOf(time: string): string {
  const parsed = Date.parse(time);
  if (!Number.isFinite(parsed)) throw new RangeError(`not an ISO-8601 time: "${time}"`);
  return new Date(parsed).toISOString();
}

function failureOf(failure: unknown): { error: string; reason: string } {
  const error = failure instanceof Error ? failure.name : typeof failure;
  const reason = failure instanceof Error ? failure.message : String(failure);
  return { error, reason: truncateText(reason, SHADOW_FAILURE_REASON_CHARS) };
}
