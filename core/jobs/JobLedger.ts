import { type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  type JobLineItem,
  JobLineItemSchema,
  type JobResultLine,
} from "../../contract/jobs/JobResultLineSchema.js";
import { emptyJobCounts, type Job, type JobCounts } from "../../contract/jobs/JobSchema.js";
import { JOB_COUNTER_SHARDS } from "../../contract/jobs/jobsTableKeys.js";
import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import { type Clock, systemClock } from "../common/Clock.js";
import type { Deadline } from "../common/Deadline.js";
import { queryPages } from "../common/queryPages.js";
import type { RetryEvent, RetryPolicy } from "../common/RetryPolicy.js";
import { classifyStoreError } from "../outcomes/classifyStoreError.js";
import { JobsReader } from "./JobsReader.js";
import type { JobObject } from "./jobIdOf.js";
import {
  completeUpdate,
  endedUpdate,
  failReadingUpdate,
  type JobCompletion,
  markReadUpdate,
  newJobOf,
  newJobRecordPut,
} from "./jobRecordChanges.js";
import { linePutItem } from "./ledgerItems.js";
import {
  type JobRecordUpdate,
  type LedgerTransactItems,
  type TransactionCancellation,
  transactOnce,
  updateRecordOnce,
} from "./ledgerWrites.js";
import { lineCountUpdate, lineLimitUpdate, newCounterPuts, uncountUpdate } from "./lineCounters.js";
import { type OutcomeRecording, recordJobOutcome } from "./recordJobOutcome.js";

/** Options of a {@link JobLedger}. */
export interface JobLedgerOptions {
  /** A document client (`removeUndefinedValues`); SDK retries off, the policy retries. */
  client: DynamoDBDocumentClient;
  /** The jobs table (`jobsTableDefinition`). */
  jobsTable: string;
  /**
   * The outcomes table, written in the same transaction as a line's count. Default none: a ledger
   * that only reads lines and completes jobs (the results writer); `recordOutcome` then throws.
   */
  outcomesTable?: string;
  retry: RetryPolicy;
  /** Default: the system clock. */
  clock?: Clock;
  /**
   * Called once per job, after the update that found every line ended set `ended_at`: the local
   * stack starts the results writer here. On AWS nothing is passed: the jobs table's stream
   * carries that change to the results writer (a record only when the write happened).
   */
  onEnded?: (jobId: string) => Promise<void>;
  /**
   * Counter items per job ({@link JOB_COUNTER_SHARDS}, 16, by default; 1 to 99). Every ledger
   * that writes a job's lines must use the number the job was started with: only tests and
   * benchmarks change it.
   */
  counterShards?: number;
}

/**
 * The jobs table's writes and reads (`contract/jobs`): a job record per object version, its
 * counters, and one line item per ended line, written once.
 *
 * Counts are exact under redelivery and duplicates because a line is counted only in the DynamoDB
 * transaction that also writes its line item under the condition that none exists — and, for a
 * line with a new outcome, that writes the outcome itself (`attribute_not_exists(id)`, as the
 * outcome store does). A redelivered line finds both conditions failing and changes nothing; a
 * line whose id already had an outcome is counted once, under the status of the outcome that
 * stands, in a second transaction conditional on the line item only.
 *
 * The count goes to one of the job's counter items (`line` −1 … −K, created with the record;
 * counter `(line − 1) mod K`), not to the job record: DynamoDB cancels a transaction that meets
 * another one on the same item (`TransactionConflict`), so with every line updating the one job
 * record, lines ending at the same time in different decide invocations cancel each other and
 * retry. With K counters two lines in flight meet only when they fall on the same counter.
 *
 * The end is found by reading, not by a count on the record: after each line's transaction, the
 * writer reads the record and the counters (one strongly consistent Query) and, when their `ended`
 * adds up to the record's `lines`, sets `ended_at` with an update conditional on it being unset —
 * the results writer's trigger, set once. The writer whose line commits last always sees the sum
 * complete (each counter only grows, every other line committed before its read), and so does
 * ingest when `markRead` comes after the last line; a writer that sees an incomplete sum leaves it
 * to the later one. See docs/jobs.md, "How lines are counted".
 */
export class JobLedger {
  readonly jobsTable: string;
  readonly outcomesTable: string;
  /** The jobs table's one reader, its failures classified as the ledger's writes are. */
  readonly reader: JobsReader;
  readonly #client: DynamoDBDocumentClient;
  readonly #retry: RetryPolicy;
  readonly #clock: Clock;
  readonly #onEnded: ((jobId: string) => Promise<void>) | undefined;
  readonly #counterShards: number;
  /** What {@link recordJobOutcome} writes with: this ledger's tables, clock and writes. */
  readonly #recording: OutcomeRecording;

  constructor(options: JobLedgerOptions) {
    this.#client = options.client;
    this.jobsTable = options.jobsTable;
    this.reader = new JobsReader({
      client: options.client,
      tableName: options.jobsTable,
      translate: classifyStoreError,
    });
    this.outcomesTable = options.outcomesTable ?? "";
    this.#retry = options.retry;
    this.#clock = options.clock ?? systemClock;
    this.#onEnded = options.onEnded;
    const shards = options.counterShards ?? JOB_COUNTER_SHARDS;
    if (!Number.isInteger(shards) || shards < 1 || shards > 99)
      throw new RangeError(
        `counterShards must be an integer in 1..99 (a transaction takes 100 actions), got ${shards}`,
      );
    this.#counterShards = shards;
    this.#recording = {
      jobsTable: this.jobsTable,
      outcomesTable: this.outcomesTable,
      counterShards: this.#counterShards,
      client: this.#client,
      now: () => this.#now(),
      send: (call, sendOptions) => this.#send(call, sendOptions),
      transact: (items, transactOptions) => this.#transact(items, transactOptions),
      checkEnded: (jobId, checkOptions) => this.checkEnded(jobId, checkOptions),
    };
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }

  #send<T>(
    call: () => Promise<T>,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<T> {
    return this.#retry.run(call, {
      deadline: options.deadline,
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    });
  }

  /**
   * Updates the job's record (`line` 0) when `ConditionExpression` holds, under the retry policy.
   * @returns false when it did not hold (`ConditionalCheckFailedException`).
   */
  #updateRecordIf(jobId: string, update: JobRecordUpdate, options: { deadline: Deadline }): Promise<boolean> {
    return this.#send(() => updateRecordOnce(this.#client, this.jobsTable, jobId, update), options);
  }

  /**
   * Runs one transaction under the retry policy. Returns undefined when it committed, or the
   * cancellation reasons (one per item) when a condition failed.
   */
  #transact(
    items: LedgerTransactItems,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<TransactionCancellation[] | undefined> {
    return this.#send(() => transactOnce(this.#client, items, this), options);
  }

  /**
   * Creates the job of an object version in status `reading` with its counters (all zero), in one
   * transaction, unless the job exists.
   *
   * @returns the job as stored and whether this call created it.
   */
  async start(object: JobObject, options: { deadline: Deadline }): Promise<{ job: Job; created: boolean }> {
    const at = this.#now();
    const job = newJobOf(object, at);
    const reasons = await this.#transact(
      [newJobRecordPut(this.jobsTable, job), ...newCounterPuts(this.#recording, job.job_id, at)],
      options,
    );
    const created = reasons === undefined;
    if (created) return { job, created };
    const stored = await this.get(job.job_id);
    return { job: stored ?? job, created: false };
  }

  /** The job record, strongly consistent; undefined when none (read by {@link JobLedger.reader}). */
  async get(jobId: string): Promise<Job | undefined> {
    return this.reader.find(jobId);
  }

  /**
   * Every line of the object was read and is sent or rejected: `reading` → `deciding` with the
   * line count (`sent` = lines − `rejected_at_ingest`, both exact), then the completion check (the
   * lines may all have ended already). A job no longer `reading` is left as it is.
   *
   * Before the record changes, the object's last line number (`lastLine`: blank lines are not
   * lines of the job but keep their numbers; default `lines`, an object without blank lines) is set
   * on every counter, so that no line beyond it is counted from then on ({@link lineCountUpdate}),
   * and the lines counted before it was known that lie beyond it (a message naming a line the
   * object does not have) are taken back: their line items deleted and their counts undone, each
   * in one transaction. Their outcomes stay, outside the job's results.
   *
   * @returns the line numbers taken back (none, unless messages named lines outside the job).
   */
  async markRead(
    jobId: string,
    lines: number,
    options: { deadline: Deadline; lastLine?: number },
  ): Promise<number[]> {
    const taken: number[] = [];
    const lastLine = Math.max(lines, options.lastLine ?? lines);
    if ((await this.get(jobId))?.status === "reading") {
      for (let shard = 0; shard < this.#counterShards; shard += 1) {
        const update = lineLimitUpdate(this.#recording, jobId, shard, lastLine, this.#now());
        await this.#send(async () => {
          try {
            await this.#client.send(new UpdateCommand(update));
          } catch (error) {
            throw classifyStoreError(error, this.jobsTable);
          }
        }, options);
      }
      for (const item of await this.#linesBeyond(jobId, lastLine)) {
        if (await this.#uncount(jobId, item, options)) taken.push(item.line);
      }
    }
    await this.#updateRecordIf(jobId, markReadUpdate(lines, this.#now()), options);
    await this.checkEnded(jobId, options);
    return taken;
  }

  /** The line items of `jobId` beyond line `lines`, strongly consistent. */
  async #linesBeyond(jobId: string, lines: number): Promise<JobLineItem[]> {
    const found: JobLineItem[] = [];
    const pages = queryPages(
      this.#client,
      {
        TableName: this.jobsTable,
        KeyConditionExpression: "job_id = :job AND #line > :lines",
        ExpressionAttributeNames: { "#line": "line" },
        ExpressionAttributeValues: { ":job": jobId, ":lines": lines },
        ConsistentRead: true,
      },
      (error) => classifyStoreError(error, this.jobsTable),
    );
    for await (const items of pages) for (const item of items) found.push(JobLineItemSchema.parse(item));
    return found;
  }

  /**
   * Takes back one counted line: deletes its line item (as it stands) and undoes its count, in
   * one transaction. @returns false when the item had changed or gone (another call took it).
   */
  async #uncount(jobId: string, item: JobLineItem, options: { deadline: Deadline }): Promise<boolean> {
    const reasons = await this.#transact(
      [
        {
          Delete: {
            TableName: this.jobsTable,
            Key: { job_id: jobId, line: item.line },
            ConditionExpression: "#status = :status AND ended_at = :ended",
            ExpressionAttributeNames: { "#status": "status" },
            ExpressionAttributeValues: { ":status": item.status, ":ended": item.ended_at },
          },
        },
        uncountUpdate(
          this.#recording,
          jobId,
          item.line,
          item.status,
          { duplicate: item.duplicate === true },
          this.#now(),
        ),
      ],
      options,
    );
    return reasons === undefined;
  }

  /**
   * Ingest cannot read the rest of the object version (it changed under a bucket without
   * versioning): `reading` → `failed` with `reason`, its lines being the `lines` read so far
   * (`counts.lines`, `counts.sent` as {@link markRead} sets them), `completed_at` set. Those lines
   * keep ending and being counted; no results are written for a failed job. A job no longer
   * `reading` is left as it is.
   *
   * @returns false when the job was no longer `reading`.
   */
  async failReading(
    jobId: string,
    lines: number,
    reason: string,
    options: { deadline: Deadline },
  ): Promise<boolean> {
    const at = this.#now();
    // The record gets a copy of the counters' sum as its counts: the completion event is made of
    // the record's final image (a Pipe on the stream), which holds no counters.
    const counted = (await this.get(jobId))?.counts ?? emptyJobCounts();
    const counts: JobCounts = { ...counted, lines, sent: lines - counted.rejected_at_ingest };
    return this.#updateRecordIf(jobId, failReadingUpdate(counts, reason, at), options);
  }

  /**
   * Writes an outcome of a job's line and counts the line, in one transaction (see the class;
   * {@link recordJobOutcome}).
   *
   * @returns the outcome as written.
   * @throws OutcomeAlreadyRecordedError when the outcome stood already (the line is then counted
   *   once, under that outcome's status, unless it was counted before).
   * @throws TransientOutcomeStoreError / OutcomeStoreError as the outcome store does.
   */
  async recordOutcome(
    outcome: Outcome,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<Outcome> {
    return recordJobOutcome(this.#recording, outcome, options);
  }

  /**
   * Counts a line whose message is going to the dead-letter queue without an outcome (the decide
   * function's last receive of it failed), once.
   *
   * @returns false when the line had been counted already.
   */
  async recordDeadLettered(
    jobId: string,
    line: JobResultLine & { status: "dead_lettered" },
    options: { deadline: Deadline },
  ): Promise<boolean> {
    const reasons = await this.#transact(
      [
        linePutItem(this.jobsTable, jobId, line, {}, this.#now()),
        lineCountUpdate(
          this.#recording,
          jobId,
          line.line,
          "dead_lettered",
          { atIngest: false, duplicate: false },
          this.#now(),
        ),
      ],
      options,
    );
    // Counted here or by an earlier call that may have stopped before its end check: check again.
    await this.checkEnded(jobId, options);
    return reasons === undefined;
  }

  /**
   * When every line of a job in `deciding` has ended — its counters' `ended` add up to its
   * `lines`, read in one strongly consistent Query — sets `ended_at` once (conditional on
   * `ended_at` being unset and the job `deciding` with those `lines`) and calls `onEnded`. Safe to
   * call any number of times, from ingest and from each line's writer, at once: the one whose
   * update succeeds triggers. A sum that is complete stays complete (counters only grow, and a
   * redriven dead letter's move keeps `ended`), so an `ended_at` set on it is never early.
   */
  async checkEnded(jobId: string, options: { deadline: Deadline }): Promise<void> {
    const job = await this.get(jobId);
    if (job?.status !== "deciding" || job.ended_at !== undefined) return;
    if (job.counts.lines === undefined || job.counts.ended < job.counts.lines) return;
    const set = await this.#updateRecordIf(jobId, endedUpdate(job.counts.lines, this.#now()), options);
    if (set && this.#onEnded !== undefined) await this.#onEnded(jobId);
  }

  /**
   * The job's line items in input order, read page by page (`pageSize` items per Query), so that
   * memory holds one page whatever the job's size.
   */
  async *lines(jobId: string, pageSize = 500): AsyncGenerator<JobLineItem> {
    const pages = queryPages(
      this.#client,
      {
        TableName: this.jobsTable,
        KeyConditionExpression: "job_id = :job AND #line >= :first",
        ExpressionAttributeNames: { "#line": "line" },
        ExpressionAttributeValues: { ":job": jobId, ":first": 1 },
        ConsistentRead: true,
        Limit: pageSize,
      },
      (error) => classifyStoreError(error, this.jobsTable),
    );
    for await (const items of pages) for (const item of items) yield JobLineItemSchema.parse(item);
  }

  /**
   * Sets a final status (with the results' URIs, or the reason it failed), conditional on the job
   * not being final yet. `counts` (the job's counts as read, its counters' sum) are copied onto the
   * record: the completion event on AWS is made of the record's final image alone.
   *
   * @returns false when another writer had completed it first.
   */
  async complete(jobId: string, fields: JobCompletion, options: { deadline: Deadline }): Promise<boolean> {
    return this.#updateRecordIf(jobId, completeUpdate(fields), options);
  }
}
