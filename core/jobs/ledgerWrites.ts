import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { JOB_RECORD_LINE } from "../../contract/jobs/jobsTableKeys.js";
import { classifyStoreError } from "../outcomes/classifyStoreError.js";
import { TransientOutcomeStoreError } from "../outcomes/errors.js";

/** The items of one ledger transaction (`TransactItems`). */
export type LedgerTransactItems = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]
>;

/** Why DynamoDB cancelled one item of a transaction, and the item that stood (`ALL_OLD`). */
export interface TransactionCancellation {
  Code?: string;
  Item?: Record<string, AttributeValue>;
}

/** An update of a job's record: its expressions, names and values (the key is the record's). */
export type JobRecordUpdate = Pick<
  UpdateCommandInput,
  "UpdateExpression" | "ConditionExpression" | "ExpressionAttributeNames" | "ExpressionAttributeValues"
>;

/** Transaction cancellation reasons that mean "try again" rather than "a condition failed". */
const TRANSIENT_CANCELLATIONS = new Set([
  "TransactionConflict",
  "ThrottlingError",
  "ProvisionedThroughputExceeded",
]);

/**
 * Sends one ledger transaction, one attempt: the caller's retry policy wraps it.
 *
 * @returns undefined when it committed, or the cancellation reasons (one per item) when a
 *   condition failed.
 * @throws TransientOutcomeStoreError when it was cancelled for a conflict or throttling; what
 *   `classifyStoreError` makes of any other failure (named after both tables).
 */
export async function transactOnce(
  client: DynamoDBDocumentClient,
  items: LedgerTransactItems,
  tables: { jobsTable: string; outcomesTable: string },
): Promise<TransactionCancellation[] | undefined> {
  try {
    await client.send(new TransactWriteCommand({ TransactItems: items }));
    return undefined;
  } catch (error) {
    const fields = error as { name?: unknown; CancellationReasons?: TransactionCancellation[] };
    if (fields.name === "TransactionCanceledException" && Array.isArray(fields.CancellationReasons)) {
      const codes = fields.CancellationReasons.map((reason) => reason.Code ?? "None");
      if (codes.some((code) => TRANSIENT_CANCELLATIONS.has(code))) {
        throw new TransientOutcomeStoreError(tables.jobsTable, `TransactionCanceled (${codes.join(", ")})`, {
          cause: error,
        });
      }
      if (codes.includes("ConditionalCheckFailed")) return fields.CancellationReasons;
    }
    throw classifyStoreError(error, `${tables.outcomesTable} + ${tables.jobsTable}`);
  }
}

/**
 * Updates the record (`line` 0) of `jobId` when the update's `ConditionExpression` holds, one
 * attempt: the caller's retry policy wraps it.
 *
 * @returns false when it did not hold (`ConditionalCheckFailedException`).
 * @throws what `classifyStoreError` makes of any other failure.
 */
export async function updateRecordOnce(
  client: DynamoDBDocumentClient,
  jobsTable: string,
  jobId: string,
  update: JobRecordUpdate,
): Promise<boolean> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: jobsTable,
        Key: { job_id: jobId, line: JOB_RECORD_LINE },
        ...update,
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: unknown }).name === "ConditionalCheckFailedException") return false;
    throw classifyStoreError(error, jobsTable);
  }
}
