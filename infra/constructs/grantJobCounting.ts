import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { type IRole, PolicyStatement } from "aws-cdk-lib/aws-iam";

/**
 * What `JobLedger` does in a function that counts a job's lines (decide, ingest): get the job
 * record, create it (PutItem), put a line item and update the counts — the line item and the count
 * in one TransactWriteItems with the outcome's PutItem, which IAM authorises action by action —
 * and set `deciding` / `ended_at` (UpdateItem). No Query, Scan or DeleteItem: those functions never
 * read a job's lines.
 */
export function grantJobCounting(role: IRole, jobsTable: ITable): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
      resources: [jobsTable.tableArn],
    }),
  );
}
