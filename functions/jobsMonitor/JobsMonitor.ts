import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import { FINAL_JOB_STATUSES, type Job } from "../../contract/jobs/JobSchema.js";
import { JOB_RECORD_KIND, JOBS_LIST_INDEX, JOBS_TABLE_KEYS } from "../../contract/jobs/jobsTableKeys.js";
import type { Clock } from "../common/Clock.js";
import type { JobLedger } from "../jobs/JobLedger.js";
import { classifyStoreError } from "../outcomes/classifyStoreError.js";
import { type JobsTally, tallyJobs } from "./tallyJobs.js";

/** Options of a {@link JobsMonitor}. */
export interface JobsMonitorOptions {
  /** A document client; the `by-created` index is queried with it. */
  client: DynamoDBDocumentClient;
  /** Reads each job in progress in full (the index leaves the counts out). */
  ledger: JobLedger;
  clock: Clock;
  /** `JOB_STALL_MINUTES`. */
  stallMinutes: number;
  /** `JOB_LOOKBACK_DAYS`: jobs created longer ago are not looked at. */
  lookbackDays: number;
}

/**
 * The jobs monitor's check: the jobs created in the last `lookbackDays` that are not final, read
 * from the `by-created` index (job records only, the status projected, so the final ones are
 * filtered out before anything else is read), then each read in full from its record
 * (strongly consistent) and tallied ({@link tallyJobs}).
 */
export class JobsMonitor {
  readonly #options: JobsMonitorOptions;

  constructor(options: JobsMonitorOptions) {
    this.#options = options;
  }

  /** @throws TransientOutcomeStoreError / OutcomeStoreError as the jobs table's reads do. */
  async check(): Promise<JobsTally> {
    const { ledger, clock } = this.#options;
    const now = clock.now();
    const ids = await this.#openJobIds(new Date(now - this.#options.lookbackDays * 86_400_000).toISOString());
    const jobs: Job[] = [];
    for (const id of ids) {
      const job = await ledger.get(id);
      if (job !== undefined) jobs.push(job);
    }
    return tallyJobs(jobs, now, this.#options.stallMinutes);
  }

  async #openJobIds(since: string): Promise<string[]> {
    const { client, ledger } = this.#options;
    const ids: string[] = [];
    let after: Record<string, unknown> | undefined;
    do {
      let page: QueryCommandOutput;
      try {
        page = await client.send(
          new QueryCommand({
            TableName: ledger.jobsTable,
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
        );
      } catch (error) {
        throw classifyStoreError(error, ledger.jobsTable);
      }
      for (const item of page.Items ?? []) {
        const id = item[JOBS_TABLE_KEYS.partition];
        if (typeof id === "string") ids.push(id);
      }
      after = page.LastEvaluatedKey;
    } while (after !== undefined);
    return ids;
  }
}
