import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { type IRole, PolicyStatement } from "aws-cdk-lib/aws-iam";

/**
 * What `JobLedger` does in a function that counts a job's lines (decide, ingest): read the job
 * record with its counters (one Query of the job's `line` ≤ 0), create them (PutItem, in one
 * TransactWriteItems), put a line item and update the line's counter — the line item and the
 * count in one TransactWriteItems with the outcome's PutItem, which IAM authorises action by
 * action — and set `deciding` / `ended_at` (UpdateItem). No Scan or DeleteItem. IAM cannot limit a
 * Query by sort key (only `dynamodb:LeadingKeys`, the partition key), so the Query could read a
 * job's lines too; the ledger asks for `line` ≤ 0 only.
 */
export function grantJobCounting(role: IRole, jobsTable: ITable): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ["dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"],
      resources: [jobsTable.tableArn],
    }),
  );
}
