import type { DynamoDBDocumentClient, QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { ZodType } from "zod";
import { type JobCounter, JobCounterSchema } from "../../contract/jobs/JobCounterSchema.js";
import { FINAL_JOB_STATUSES, type Job, JobSchema } from "../../contract/jobs/JobSchema.js";
import {
  JOB_RECORD_KIND,
  JOB_RECORD_LINE,
  JOBS_LIST_INDEX,
  JOBS_TABLE_KEYS,
} from "../../contract/jobs/jobsTableKeys.js";
import { queryPages } from "../common/queryPages.js";
import { errorNameOf } from "../common/tableErrorHint.js";
import { JobNotFoundError, JobsTableError, MalformedJobError } from "./errors.js";
import { foldJobCounters } from "./foldJobCounters.js";

/** Options of {@link JobsReader}. */
export interface JobsReaderOptions {
  /** A document client (see `createOutcomesClient`: the same settings serve the jobs table). */
  client: DynamoDBDocumentClient;
  tableName: string;
  /**
   * What a failed read throws. Default: {@link JobsTableError}, whose message says which flag fixes
   * it (`decisions jobs`); the functions pass `classifyStoreError`, whose classes tell a transient
   * failure from a configuration one.
   */
  translate?: (error: unknown, tableName: string) => Error;
}

/**
 * The one reader of the jobs table (`JOBS_TABLE_KEYS`): one job (its record and counters, strongly
 * consistent), the newest jobs, or the ids of the jobs not final yet, through the `by-created`
 * index. Records are checked against `JobSchema`, counters against `JobCounterSchema`. The job ledger, the jobs monitor and `decisions jobs` read through it.
 */
export class JobsReader {
  readonly tableName: string;
  readonly #client: DynamoDBDocumentClient;
  readonly #translate: (error: unknown, tableName: string) => Error;

  constructor(options: JobsReaderOptions) {
    this.#client = options.client;
    this.tableName = options.tableName;
    this.#translate =
      options.translate ??
      ((error, tableName) => new JobsTableError(tableName, errorNameOf(error), { cause: error }));
  }

  /**
   * The job record of `jobId`.
   * @throws JobNotFoundError when there is none; JobsTableError when the table cannot be read;
   *   MalformedJobError for an item that is not a job record.
   */
  async get(jobId: string): Promise<Job> {
    const job = await this.find(jobId);
    if (job === undefined) throw new JobNotFoundError(this.tableName, jobId);
    return job;
  }

  /**
   * The job of `jobId`, strongly consistent, undefined when none: its record and its counters
   * (`line` ≤ 0) read by one Query and folded ({@link foldJobCounters}: counts are the counters'
   * sum).
   * @throws what `translate` makes of a failed read; MalformedJobError for an item that is not a
   *   job record or counter.
   */
  async find(jobId: string): Promise<Job | undefined> {
    let record: Job | undefined;
    const counters: JobCounter[] = [];
    const pages = this.#pages({
      TableName: this.tableName,
      KeyConditionExpression: "#job = :job AND #line <= :record",
      ExpressionAttributeNames: { "#job": JOBS_TABLE_KEYS.partition, "#line": JOBS_TABLE_KEYS.sort },
      ExpressionAttributeValues: { ":job": jobId, ":record": JOB_RECORD_LINE },
      ConsistentRead: true,
    });
    for await (const items of pages) {
      for (const item of items) {
        if (item[JOBS_TABLE_KEYS.sort] === JOB_RECORD_LINE) record = this.#parse(item);
        else counters.push(this.#parseCounter(item));
      }
    }
    return record === undefined ? undefined : foldJobCounters(record, counters);
  }

  /**
   * The ids of the jobs created at `since` or later that are not final, from the `by-created`
   * index (job records only, the status projected, so the final ones are filtered out before
   * anything else is read): the jobs monitor's question.
   */
  async openSince(since: string): Promise<string[]> {
    const ids: string[] = [];
    const pages = this.#pages({
      TableName: this.tableName,
      IndexName: JOBS_LIST_INDEX.name,
      KeyConditionExpression: "#kind = :kind AND #created >= :since",
      FilterExpression: "NOT (#status IN (:final0, :final1, :final2))",
      ExpressionAttributeNames: {
        "#kind": JOBS_LIST_INDEX.partition,
        "#created": JOBS_LIST_INDEX.sort,
        "#status": "status",
      },
      ExpressionAttributeValues: {
        ":kind": JOB_RECORD_KIND,
        ":since": since,
        ...Object.fromEntries(FINAL_JOB_STATUSES.map((status, index) => [`:final${index}`, status])),
      },
    });
    for await (const items of pages) ids.push(...idsOf(items));
    return ids;
  }

  /**
   * The newest jobs, newest first (at most `limit`), each read in full as {@link JobsReader.find}
   * reads one (the index leaves the counts out, so that a count update does not write to it).
   * @throws JobsTableError when the table or its index cannot be read.
   */
  async newest(limit: number): Promise<Job[]> {
    const ids: string[] = [];
    // The input is made anew for each page: each asks only for the ids still missing.
    const pages = this.#pages(() => ({
      TableName: this.tableName,
      IndexName: JOBS_LIST_INDEX.name,
      KeyConditionExpression: "#kind = :kind",
      ExpressionAttributeNames: { "#kind": JOBS_LIST_INDEX.partition },
      ExpressionAttributeValues: { ":kind": JOB_RECORD_KIND },
      ScanIndexForward: false,
      Limit: limit - ids.length,
    }));
    for await (const items of pages) {
      ids.push(...idsOf(items));
      if (ids.length >= limit) break;
    }
    return this.#getMany(ids);
  }

  async #getMany(ids: readonly string[]): Promise<Job[]> {
    const jobs: Job[] = [];
    // One Query per job (its record and counters); a job listed by the index but gone since is left out.
    for (const id of ids) {
      const job = await this.find(id);
      if (job !== undefined) jobs.push(job);
    }
    return jobs;
  }

  #parse(item: Record<string, unknown>): Job {
    return this.#parseItem(JobSchema, item, "");
  }

  #parseCounter(item: Record<string, unknown>): JobCounter {
    return this.#parseItem(JobCounterSchema, item, `counter ${String(item[JOBS_TABLE_KEYS.sort])} `);
  }

  /** @throws MalformedJobError naming each issue, after `prefix`. */
  #parseItem<T>(schema: ZodType<T>, item: Record<string, unknown>, prefix: string): T {
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      throw new MalformedJobError(
        this.tableName,
        item[JOBS_TABLE_KEYS.partition],
        parsed.error.issues.map((issue) => `${prefix}${issue.path.join(".") || "(item)"}: ${issue.message}`),
      );
    }
    return parsed.data;
  }

  #pages(query: QueryCommandInput | (() => QueryCommandInput)): AsyncGenerator<Record<string, unknown>[]> {
    return queryPages(this.#client, query, (error) => this.#translate(error, this.tableName));
  }
}

/** The job ids (`job_id`) of index items. */
function idsOf(items: readonly Record<string, unknown>[]): string[] {
  const ids: string[] = [];
  for (const item of items) {
    const id = item[JOBS_TABLE_KEYS.partition];
    if (typeof id === "string") ids.push(id);
  }
  return ids;
}
