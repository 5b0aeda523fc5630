import { CreateTableCommand, type DynamoDBClient, waitUntilTableExists } from "@aws-sdk/client-dynamodb";
import type { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { JobCompletedDetail } from "../../contract/index.js";
import { RetryPolicy } from "../../core/common/index.js";
import { JobLedger, JobResultsWriter, jobsTableDefinition } from "../../core/jobs/index.js";
import { createTableIfMissing } from "./createStackResources.js";
import type { TablePlan } from "./LocalStackPlan.js";

/** Options of {@link LocalJobs.start}. */
export interface LocalJobsOptions {
  dynamodb: DynamoDBClient;
  s3: S3Client;
  /** The jobs table to create. */
  jobsTable: string;
  /** The jobs table as the template declares it. Default: `jobsTableDefinition` (core/jobs). */
  jobsTableDefinition?: TablePlan;
  /** The outcomes table the results are read from. */
  outcomesTable: string;
  /** Told of every "Decision Job Completed" event (the local stand-in for the outcomes bus). */
  onCompleted: (detail: JobCompletedDetail) => void;
  /** Told when writing a job's results failed (the job stays without results). */
  onError: (jobId: string, error: unknown) => void;
  /**
   * The results writer's own clients (the results function's, authorized as it when the stack
   * enforces IAM). Default: `dynamodb` and `s3`, which create the table.
   */
  writerClients?: { dynamodb: DynamoDBClient; s3: S3Client };
}

/**
 * Batch jobs on the local stack as the deployed stack runs them: the jobs table, and the results
 * writer started once per job when the conditional count update finds its last line ended (on AWS
 * the jobs table's stream invokes the writer; here the functions call {@link LocalJobs.onJobEnded}
 * after their write, and the write runs beside them, not inside their invocation).
 */
export class LocalJobs {
  readonly table: string;
  readonly #writer: JobResultsWriter;
  readonly #pending = new Set<Promise<void>>();
  readonly #onError: LocalJobsOptions["onError"];

  private constructor(table: string, writer: JobResultsWriter, onError: LocalJobsOptions["onError"]) {
    this.table = table;
    this.#writer = writer;
    this.#onError = onError;
  }

  /** Creates the jobs table and the results writer. */
  static async start(options: LocalJobsOptions): Promise<LocalJobs> {
    if (options.jobsTableDefinition === undefined) {
      await options.dynamodb.send(new CreateTableCommand(jobsTableDefinition(options.jobsTable)));
      await waitUntilTableExists(
        { client: options.dynamodb, maxWaitTime: 60 },
        { TableName: options.jobsTable },
      );
    } else {
      await createTableIfMissing(options.dynamodb, options.jobsTable, options.jobsTableDefinition);
    }
    const writerClients = options.writerClients ?? { dynamodb: options.dynamodb, s3: options.s3 };
    const documents = DynamoDBDocumentClient.from(writerClients.dynamodb, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const writer = new JobResultsWriter({
      ledger: new JobLedger({
        client: documents,
        jobsTable: options.jobsTable,
        outcomesTable: options.outcomesTable,
        retry: new RetryPolicy({ maxAttempts: 3 }),
      }),
      s3: writerClients.s3,
      publish: async (detail) => options.onCompleted(detail),
    });
    return new LocalJobs(options.jobsTable, writer, options.onError);
  }

  /** Starts writing the job's results (the functions' `onJobEnded`). */
  readonly onJobEnded = async (jobId: string): Promise<void> => {
    const write = this.#writer.write(jobId).then(
      () => undefined,
      (error: unknown) => this.#onError(jobId, error),
    );
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  };

  /** Waits for the results writes under way (the stack stops after them). */
  async stop(): Promise<void> {
    await Promise.all([...this.#pending]);
  }
}
