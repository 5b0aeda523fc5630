import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
} from "@aws-sdk/lib-dynamodb";
import { FINAL_JOB_STATUSES, type Job, JobSchema } from "../../contract/jobs/JobSchema.js";
import {
  JOB_RECORD_KIND,
  JOB_RECORD_LINE,
  JOBS_LIST_INDEX,
  JOBS_TABLE_KEYS,
} from "../../contract/jobs/jobsTableKeys.js";
import { errorNameOf } from "../common/tableErrorHint.js";
import { JobNotFoundError, JobsTableError, MalformedJobError } from "./errors.js";

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

/** DynamoDB's BatchGetItem takes at most 100 keys. */
const BATCH_GET_KEYS = 100;

/**
 * The one reader of the jobs table (`JOBS_TABLE_KEYS`): one job record (strongly consistent), the
 * newest jobs, or the ids of the jobs not final yet, through the `by-created` index. Records are
 * checked against `JobSchema`. The job ledger, the jobs monitor and `decisions jobs` read through it.
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
   * The job record of `jobId`, strongly consistent; undefined when none.
   * @throws what `translate` makes of a failed read; MalformedJobError for an item that is not a job record.
   */
  async find(jobId: string): Promise<Job | undefined> {
    const found = await this.#send(() =>
      this.#client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { [JOBS_TABLE_KEYS.partition]: jobId, [JOBS_TABLE_KEYS.sort]: JOB_RECORD_LINE },
          ConsistentRead: true,
        }),
      ),
    );
    return found.Item === undefined ? undefined : this.#parse(found.Item);
  }

  /**
   * The ids of the jobs created at `since` or later that are not final, from the `by-created`
   * index (job records only, the status projected, so the final ones are filtered out before
   * anything else is read): the jobs monitor's question.
   */
  async openSince(since: string): Promise<string[]> {
    const ids: string[] = [];
    let after: Record<string, unknown> | undefined;
    do {
      const page = await this.#send(() =>
        this.#client.send(
          new QueryCommand({
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
            ...(after !== undefined ? { ExclusiveStartKey: after } : {}),
          }),
        ),
      );
      for (const item of page.Items ?? []) {
        const id = item[JOBS_TABLE_KEYS.partition];
        if (typeof id === "string") ids.push(id);
      }
      after = page.LastEvaluatedKey;
    } while (after !== undefined);
    return ids;
  }

  /**
   * The newest jobs, newest first (at most `limit`), each read in full from its record (the index
   * leaves the counts out, so that a count update does not write to it).
   * @throws JobsTableError when the table or its index cannot be read.
   */
  async newest(limit: number): Promise<Job[]> {
    const ids: string[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await this.#send(() =>
        this.#client.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: JOBS_LIST_INDEX.name,
            KeyConditionExpression: "#kind = :kind",
            ExpressionAttributeNames: { "#kind": JOBS_LIST_INDEX.partition },
            ExpressionAttributeValues: { ":kind": JOB_RECORD_KIND },
            ScanIndexForward: false,
            Limit: limit - ids.length,
            ...(cursor ? { ExclusiveStartKey: cursor } : {}),
          }),
        ),
      );
      for (const item of page.Items ?? []) {
        const id = item[JOBS_TABLE_KEYS.partition];
        if (typeof id === "string") ids.push(id);
      }
      cursor = page.LastEvaluatedKey;
    } while (cursor !== undefined && ids.length < limit);
    return this.#getMany(ids);
  }

  async #getMany(ids: readonly string[]): Promise<Job[]> {
    const byId = new Map<string, Job>();
    for (let start = 0; start < ids.length; start += BATCH_GET_KEYS) {
      let keys: Record<string, unknown>[] | undefined = ids
        .slice(start, start + BATCH_GET_KEYS)
        .map((id) => ({ [JOBS_TABLE_KEYS.partition]: id, [JOBS_TABLE_KEYS.sort]: JOB_RECORD_LINE }));
      // BatchGetItem may leave keys unprocessed under load: asked again until none is left.
      while (keys !== undefined && keys.length > 0) {
        const asked: Record<string, unknown>[] = keys;
        const page: BatchGetCommandOutput = await this.#send(() =>
          this.#client.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: asked } } })),
        );
        for (const item of page.Responses?.[this.tableName] ?? []) {
          const job = this.#parse(item);
          byId.set(job.job_id, job);
        }
        keys = page.UnprocessedKeys?.[this.tableName]?.Keys;
      }
    }
    // A job listed by the index but gone from the table since is left out.
    return ids.flatMap((id) => {
      const job = byId.get(id);
      return job === undefined ? [] : [job];
    });
  }

  #parse(item: Record<string, unknown>): Job {
    const parsed = JobSchema.safeParse(item);
    if (!parsed.success) {
      throw new MalformedJobError(
        this.tableName,
        item[JOBS_TABLE_KEYS.partition],
        parsed.error.issues.map((issue) => `${issue.path.join(".") || "(item)"}: ${issue.message}`),
      );
    }
    return parsed.data;
  }

  async #send<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.#translate(error, this.tableName);
    }
  }
}
