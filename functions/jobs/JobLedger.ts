import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { emptyJobCounterCounts, type JobCounter } from "../../contract/jobs/JobCounterSchema.js";
import {
  type JobLineItem,
  JobLineItemSchema,
  type JobResultLine,
} from "../../contract/jobs/JobResultLineSchema.js";
import {
  emptyJobCounts,
  type FinalJobStatus,
  type Job,
  type JobCounts,
} from "../../contract/jobs/JobSchema.js";
import {
  JOB_COUNTER_SHARDS,
  JOB_RECORD_KIND,
  JOB_RECORD_LINE,
  jobCounterLine,
  jobCounterShardOf,
} from "../../contract/jobs/jobsTableKeys.js";
import { decisionUsageOf } from "../../contract/outcome/DecisionUsageSchema.js";
import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import { type Clock, systemClock } from "../common/Clock.js";
import type { Deadline } from "../common/Deadline.js";
import { queryPages } from "../common/queryPages.js";
import type { RetryEvent, RetryPolicy } from "../common/RetryPolicy.js";
import { classifyStoreError } from "../outcomes/classifyStoreError.js";
import { OutcomeAlreadyRecordedError, TransientOutcomeStoreError } from "../outcomes/errors.js";
import { putOutcomeOnce, standingOutcomeOf, writeOnceOutcomePut } from "../outcomes/writeOnce.js";
import { JobsReader } from "./JobsReader.js";
import { type JobObject, jobIdOf } from "./jobIdOf.js";
import { resultLineOf } from "./resultLineOf.js";

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

/** Transaction cancellation reasons that mean "try again" rather than "a condition failed". */
const TRANSIENT_CANCELLATIONS = new Set([
  "TransactionConflict",
  "ThrottlingError",
  "ProvisionedThroughputExceeded",
]);

interface Cancellation {
  Code?: string;
  Item?: Record<string, AttributeValue>;
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
   * Updates the job's record (`line` 0) when `ConditionExpression` holds.
   * @returns false when it did not hold (`ConditionalCheckFailedException`).
   */
  #updateRecordIf(
    jobId: string,
    update: Pick<
      UpdateCommandInput,
      "UpdateExpression" | "ConditionExpression" | "ExpressionAttributeNames" | "ExpressionAttributeValues"
    >,
    options: { deadline: Deadline },
  ): Promise<boolean> {
    return this.#send(async () => {
      try {
        await this.#client.send(
          new UpdateCommand({
            TableName: this.jobsTable,
            Key: { job_id: jobId, line: JOB_RECORD_LINE },
            ...update,
          }),
        );
        return true;
      } catch (error) {
        if ((error as { name?: unknown }).name === "ConditionalCheckFailedException") return false;
        throw classifyStoreError(error, this.jobsTable);
      }
    }, options);
  }

  /**
   * Creates the job of an object version in status `reading` with its counters (all zero), in one
   * transaction, unless the job exists.
   *
   * @returns the job as stored and whether this call created it.
   */
  async start(object: JobObject, options: { deadline: Deadline }): Promise<{ job: Job; created: boolean }> {
    const at = this.#now();
    const job: Job = {
      job_id: jobIdOf(object),
      source: `s3://${object.bucket}/${object.key}`,
      bucket: object.bucket,
      key: object.key,
      ...(object.versionId !== undefined ? { version_id: object.versionId } : {}),
      ...(object.etag !== undefined ? { etag: object.etag } : {}),
      status: "reading",
      counts: emptyJobCounts(),
      created_at: at,
      updated_at: at,
    };
    const counters = Array.from({ length: this.#counterShards }, (_, shard) => {
      const counter: JobCounter = {
        job_id: job.job_id,
        line: jobCounterLine(shard),
        counts: emptyJobCounterCounts(),
        updated_at: at,
      };
      return { Put: { TableName: this.jobsTable, Item: counter } };
    });
    const reasons = await this.#transact(
      [
        {
          Put: {
            TableName: this.jobsTable,
            Item: { ...job, line: JOB_RECORD_LINE, record_kind: JOB_RECORD_KIND },
            ConditionExpression: "attribute_not_exists(job_id)",
          },
        },
        ...counters,
      ],
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
   */
  async markRead(jobId: string, lines: number, options: { deadline: Deadline }): Promise<void> {
    const at = this.#now();
    await this.#updateRecordIf(
      jobId,
      {
        UpdateExpression:
          "SET #status = :deciding, counts.#lines = :lines, counts.sent = :lines - counts.rejected_at_ingest, read_at = :at, updated_at = :at",
        ConditionExpression: "#status = :reading",
        ExpressionAttributeNames: { "#status": "status", "#lines": "lines" },
        ExpressionAttributeValues: {
          ":deciding": "deciding",
          ":reading": "reading",
          ":lines": lines,
          ":at": at,
        },
      },
      options,
    );
    await this.checkEnded(jobId, options);
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
    return this.#updateRecordIf(
      jobId,
      {
        UpdateExpression:
          "SET #status = :failed, counts = :counts, read_at = :at, completed_at = :at, updated_at = :at, reason = :reason",
        ConditionExpression: "#status = :reading",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":failed": "failed",
          ":reading": "reading",
          ":counts": counts,
          ":at": at,
          ":reason": reason,
        },
      },
      options,
    );
  }

  /**
   * Writes an outcome of a job's line and counts the line, in one transaction (see the class).
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
    const jobId = outcome.source.job_id;
    const line = outcome.source.line;
    if (jobId === undefined || line === undefined)
      throw new RangeError("recordOutcome: the outcome names no job line");
    if (this.outcomesTable === "") throw new RangeError("recordOutcome: this ledger has no outcomes table");
    const atIngest = outcome.source.kind === "s3";
    const reasons = await this.#transact(
      [
        this.#putOutcome(outcome),
        this.#putLine(jobId, resultLineOf(line, outcome), auditOf(outcome)),
        this.#count(jobId, line, outcome.status, { atIngest, duplicate: false }),
      ],
      options,
    );
    if (reasons === undefined) {
      await this.checkEnded(jobId, options);
      return outcome;
    }
    const [outcomeReason, lineReason] = reasons;
    const found = standingOutcomeOf(
      outcomeReason?.Code === "ConditionalCheckFailed" ? outcomeReason.Item : undefined,
    );
    const existing = found?.item;
    const standing = found?.outcome;
    if (lineReason?.Code === "ConditionalCheckFailed" && lineReason.Item?.status?.S === "dead_lettered") {
      // The line was dead-lettered, and its message redriven: it ends now with an outcome.
      const written = await this.#redeemDeadLettered(jobId, line, outcome, standing, options);
      if (written) {
        // A move keeps `ended`; the check is for a dead letter whose own check never ran.
        await this.checkEnded(jobId, options);
        return outcome;
      }
    }
    if (outcomeReason?.Code === "ConditionalCheckFailed" && lineReason?.Code !== "ConditionalCheckFailed") {
      // The id had an outcome before this line: the line ends with it, counted once.
      if (standing !== undefined) {
        await this.#transact(
          [
            this.#putLine(jobId, resultLineOf(line, standing, true), auditOf(standing)),
            this.#count(jobId, line, standing.status, { atIngest, duplicate: true }),
          ],
          options,
        );
      }
    }
    if (outcomeReason?.Code === "ConditionalCheckFailed") {
      // The line is counted now, here or by an earlier delivery — which may have stopped (a crash,
      // a timeout) after its transaction and before its end check: the check runs again, so the
      // job's last line ends it whatever was delivered twice.
      await this.checkEnded(jobId, options);
      throw new OutcomeAlreadyRecordedError(outcome.policy, outcome.id, standing ?? existing);
    }
    // The transaction failed on a condition other than the outcome's: the outcome is written once, alone.
    await this.#send(() => putOutcomeOnce(this.#client, this.outcomesTable, outcome), options);
    return outcome;
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
        this.#putLine(jobId, line),
        this.#count(jobId, line.line, "dead_lettered", { atIngest: false, duplicate: false }),
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
    const lines = job.counts.lines;
    const at = this.#now();
    const set = await this.#updateRecordIf(
      jobId,
      {
        UpdateExpression: "SET ended_at = :at, updated_at = :at",
        ConditionExpression:
          "#status = :deciding AND attribute_not_exists(ended_at) AND counts.#lines = :lines",
        ExpressionAttributeNames: { "#status": "status", "#lines": "lines" },
        ExpressionAttributeValues: { ":deciding": "deciding", ":at": at, ":lines": lines },
      },
      options,
    );
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
  async complete(
    jobId: string,
    fields: {
      status: FinalJobStatus;
      completed_at: string;
      results_uri?: string;
      manifest_uri?: string;
      reason?: string;
      counts?: JobCounts;
    },
    options: { deadline: Deadline },
  ): Promise<boolean> {
    const names: Record<string, string> = { "#status": "status" };
    const values: Record<string, unknown> = {
      ":status": fields.status,
      ":at": fields.completed_at,
      ":final1": "complete",
      ":final2": "complete_with_errors",
      ":final3": "failed",
    };
    const sets = ["#status = :status", "completed_at = :at", "updated_at = :at"];
    for (const name of ["results_uri", "manifest_uri", "reason", "counts"] as const) {
      const value = fields[name];
      if (value === undefined) continue;
      sets.push(`${name} = :${name}`);
      values[`:${name}`] = value;
    }
    return this.#updateRecordIf(
      jobId,
      {
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: "attribute_exists(job_id) AND NOT (#status IN (:final1, :final2, :final3))",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
      options,
    );
  }

  /**
   * A dead-lettered line whose message was redriven came back with an outcome: the line item is
   * replaced by the outcome's line and the job's count moves from `dead_lettered` to the outcome's
   * status (`ended` stays), in one transaction conditional on the line item still being
   * dead-lettered, so the move happens once whatever is delivered twice. The outcome is written in
   * the same transaction unless one stands for the id already (`standing`): the line then ends
   * with that one (a duplicate when it came from another line). A concurrent writer of the
   * outcome makes one more round with the outcome it wrote.
   *
   * @returns whether `outcome` was written here (false: another outcome stands, or another writer
   *   moved the line first).
   */
  async #redeemDeadLettered(
    jobId: string,
    line: number,
    outcome: Outcome,
    standing: Outcome | undefined,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<boolean> {
    let stands = standing;
    for (let round = 0; round < 3; round += 1) {
      const ending = stands ?? outcome;
      const duplicate =
        stands !== undefined && !(stands.source.job_id === jobId && stands.source.line === line);
      const reasons = await this.#transact(
        [
          ...(stands === undefined ? [this.#putOutcome(outcome)] : []),
          this.#putLine(jobId, resultLineOf(line, ending, duplicate), auditOf(ending), {
            replacing: "dead_lettered",
          }),
          this.#moveCount(jobId, line, ending.status, { duplicate }),
        ],
        options,
      );
      if (reasons === undefined) return stands === undefined;
      const [first] = reasons;
      if (stands !== undefined || first?.Code !== "ConditionalCheckFailed") return false;
      const found = standingOutcomeOf(first.Item)?.outcome;
      if (found === undefined) return false;
      stands = found;
    }
    return false;
  }

  #putOutcome(outcome: Outcome) {
    return { Put: writeOnceOutcomePut(this.outcomesTable, outcome) };
  }

  /**
   * The Put of a line item: once (no item stands at that line), or `replacing` a dead-lettered
   * one. A failed condition returns the item that stands (the redriven line's case needs it).
   */
  #putLine(
    jobId: string,
    line: JobResultLine,
    audit: Partial<JobLineItem> = {},
    how: { replacing?: "dead_lettered" } = {},
  ) {
    const item: JobLineItem = { ...line, ...audit, job_id: jobId, ended_at: this.#now() };
    const condition: { expression: string; names: Record<string, string>; values?: Record<string, string> } =
      how.replacing === undefined
        ? { expression: "attribute_not_exists(#line)", names: { "#line": "line" } }
        : {
            expression: "#status = :replacing",
            names: { "#status": "status" },
            values: { ":replacing": how.replacing },
          };
    return {
      Put: {
        TableName: this.jobsTable,
        Item: item,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: condition.names,
        ...(condition.values === undefined ? {} : { ExpressionAttributeValues: condition.values }),
        ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
      },
    };
  }

  /**
   * The count update of a dead-lettered line that ended with an outcome after all, on the line's
   * counter (the one that counted it dead-lettered).
   */
  #moveCount(jobId: string, line: number, status: string, how: { duplicate: boolean }) {
    const sets = [
      "counts.dead_lettered = counts.dead_lettered - :one",
      "counts.outcomes.#status = if_not_exists(counts.outcomes.#status, :zero) + :one",
      "updated_at = :at",
    ];
    if (how.duplicate) sets.push("counts.duplicates = counts.duplicates + :one");
    return {
      Update: {
        TableName: this.jobsTable,
        Key: this.#counterKey(jobId, line),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: "attribute_exists(job_id) AND counts.dead_lettered >= :one",
        ExpressionAttributeNames: { "#status": status },
        ExpressionAttributeValues: { ":one": 1, ":zero": 0, ":at": this.#now() },
      },
    };
  }

  /** The key of the counter that counts `line` of `jobId`. */
  #counterKey(jobId: string, line: number) {
    return { job_id: jobId, line: jobCounterLine(jobCounterShardOf(line, this.#counterShards)) };
  }

  /**
   * The count update of a line that ended, on its counter. Conditional on the counter existing:
   * an Update would otherwise create one for a job that was never started.
   */
  #count(jobId: string, line: number, status: string, how: { atIngest: boolean; duplicate: boolean }) {
    const names: Record<string, string> = {};
    const sets = ["counts.ended = counts.ended + :one", "updated_at = :at"];
    if (status === "dead_lettered") sets.push("counts.dead_lettered = counts.dead_lettered + :one");
    else {
      names["#status"] = status;
      sets.push("counts.outcomes.#status = if_not_exists(counts.outcomes.#status, :zero) + :one");
    }
    if (how.atIngest) sets.push("counts.rejected_at_ingest = counts.rejected_at_ingest + :one");
    if (how.duplicate) sets.push("counts.duplicates = counts.duplicates + :one");
    return {
      Update: {
        TableName: this.jobsTable,
        Key: this.#counterKey(jobId, line),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: "attribute_exists(job_id)",
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        // DynamoDB refuses a value the expression does not use.
        ExpressionAttributeValues: {
          ":one": 1,
          ":at": this.#now(),
          ...(status === "dead_lettered" ? {} : { ":zero": 0 }),
        },
      },
    };
  }

  /**
   * Runs one transaction under the retry policy. Returns undefined when it committed, or the
   * cancellation reasons (one per item) when a condition failed.
   */
  async #transact(
    items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<Cancellation[] | undefined> {
    return this.#send(async () => {
      try {
        await this.#client.send(new TransactWriteCommand({ TransactItems: items }));
        return undefined;
      } catch (error) {
        const fields = error as { name?: unknown; CancellationReasons?: Cancellation[] };
        if (fields.name === "TransactionCanceledException" && Array.isArray(fields.CancellationReasons)) {
          const codes = fields.CancellationReasons.map((reason) => reason.Code ?? "None");
          if (codes.some((code) => TRANSIENT_CANCELLATIONS.has(code))) {
            throw new TransientOutcomeStoreError(
              this.jobsTable,
              `TransactionCanceled (${codes.join(", ")})`,
              {
                cause: error,
              },
            );
          }
          if (codes.includes("ConditionalCheckFailed")) return fields.CancellationReasons;
        }
        throw classifyStoreError(error, `${this.outcomesTable} + ${this.jobsTable}`);
      }
    }, options);
  }
}

/**
 * What the manifest reads of a line's outcome: policy version and hash, model and its hash, what
 * its endpoint request cost.
 */
function auditOf(outcome: Outcome): Partial<JobLineItem> {
  const sha = (outcome as { model_sha256?: unknown }).model_sha256;
  const usage = decisionUsageOf(outcome);
  return {
    ...(usage !== undefined ? { usage } : {}),
    ...(outcome.policy_version !== undefined ? { policy_version: outcome.policy_version } : {}),
    ...(outcome.policy_sha256 !== undefined ? { policy_sha256: outcome.policy_sha256 } : {}),
    ...(outcome.model !== undefined ? { model: outcome.model } : {}),
    ...(typeof sha === "string" ? { model_sha256: sha } : {}),
  };
}
