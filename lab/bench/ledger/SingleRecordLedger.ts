import {
  type DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { emptyJobCounts } from "../../../contract/jobs/JobSchema.js";
import { JOB_RECORD_KIND, JOB_RECORD_LINE } from "../../../contract/jobs/jobsTableKeys.js";
import type { Outcome } from "../../../contract/outcome/OutcomeSchema.js";
import type { Deadline } from "../../../core/common/Deadline.js";
import type { RetryEvent, RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { JobsReader } from "../../../core/jobs/JobsReader.js";
import { resultLineOf } from "../../../core/jobs/resultLineOf.js";
import { classifyStoreError } from "../../../core/outcomes/classifyStoreError.js";
import { TransientOutcomeStoreError } from "../../../core/outcomes/errors.js";
import { writeOnceOutcomePut } from "../../../core/outcomes/writeOnce.js";

/**
 * The ledger's write path before counters (the repository until 2026-12-03), kept for the ledger
 * benchmark only: a line's outcome, its line item and the count on the **job record** in one
 * transaction, then a read of the record and the conditional `ended_at`. Only the first delivery
 * of a new line is modelled (the benchmark delivers each line once); the job record is created
 * without counters, so {@link JobsReader} reads its own counts.
 */
export class SingleRecordLedger {
  readonly #client: DynamoDBDocumentClient;
  readonly #jobsTable: string;
  readonly #outcomesTable: string;
  readonly #retry: RetryPolicy;
  readonly #reader: JobsReader;

  constructor(options: {
    client: DynamoDBDocumentClient;
    jobsTable: string;
    outcomesTable: string;
    retry: RetryPolicy;
  }) {
    this.#client = options.client;
    this.#jobsTable = options.jobsTable;
    this.#outcomesTable = options.outcomesTable;
    this.#retry = options.retry;
    this.#reader = new JobsReader({ client: options.client, tableName: options.jobsTable });
  }

  /** Creates a job record in `deciding` with `lines` known (what ingest leaves behind). */
  async start(jobId: string, lines: number): Promise<void> {
    const at = new Date().toISOString();
    await this.#client.send(
      new PutCommand({
        TableName: this.#jobsTable,
        Item: {
          job_id: jobId,
          line: JOB_RECORD_LINE,
          record_kind: JOB_RECORD_KIND,
          source: `s3://bench/${jobId}.jsonl`,
          bucket: "bench",
          key: `${jobId}.jsonl`,
          status: "deciding",
          counts: { ...emptyJobCounts(), lines, sent: lines },
          created_at: at,
          read_at: at,
          updated_at: at,
        },
      }),
    );
  }

  /**
   * Writes a new line's outcome, line item and count in one transaction (retried on
   * `TransactionConflict`), then checks the end as the ledger did.
   *
   * @returns whether this call set `ended_at`.
   */
  async recordOutcome(
    outcome: Outcome,
    options: { deadline: Deadline; onRetry?: (event: RetryEvent) => void },
  ): Promise<boolean> {
    const jobId = outcome.source.job_id ?? "";
    const line = outcome.source.line ?? 0;
    const now = new Date().toISOString();
    await this.#retry.run(async () => {
      try {
        await this.#client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: writeOnceOutcomePut(this.#outcomesTable, outcome) },
              {
                Put: {
                  TableName: this.#jobsTable,
                  Item: { ...resultLineOf(line, outcome), job_id: jobId, ended_at: now },
                  ConditionExpression: "attribute_not_exists(#line)",
                  ExpressionAttributeNames: { "#line": "line" },
                },
              },
              {
                Update: {
                  TableName: this.#jobsTable,
                  Key: { job_id: jobId, line: JOB_RECORD_LINE },
                  UpdateExpression:
                    "SET counts.ended = counts.ended + :one, counts.outcomes.#status = if_not_exists(counts.outcomes.#status, :zero) + :one, updated_at = :at",
                  ConditionExpression: "attribute_exists(job_id)",
                  ExpressionAttributeNames: { "#status": outcome.status },
                  ExpressionAttributeValues: { ":one": 1, ":zero": 0, ":at": now },
                },
              },
            ],
          }),
        );
      } catch (error) {
        const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
        if (reasons?.some((reason) => reason.Code === "TransactionConflict"))
          throw new TransientOutcomeStoreError(this.#jobsTable, "TransactionConflict", { cause: error });
        throw classifyStoreError(error, this.#jobsTable);
      }
    }, options);
    const job = await this.#reader.find(jobId);
    if (job?.status !== "deciding" || job.ended_at !== undefined) return false;
    if (job.counts.lines === undefined || job.counts.ended < job.counts.lines) return false;
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#jobsTable,
          Key: { job_id: jobId, line: JOB_RECORD_LINE },
          UpdateExpression: "SET ended_at = :at, updated_at = :at",
          ConditionExpression:
            "#status = :deciding AND attribute_not_exists(ended_at) AND counts.ended = counts.#lines",
          ExpressionAttributeNames: { "#status": "status", "#lines": "lines" },
          ExpressionAttributeValues: { ":deciding": "deciding", ":at": new Date().toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if ((error as { name?: unknown }).name === "ConditionalCheckFailedException") return false;
      throw classifyStoreError(error, this.#jobsTable);
    }
  }
}
