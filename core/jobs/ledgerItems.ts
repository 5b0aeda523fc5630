import type { JobLineItem, JobResultLine } from "../../contract/jobs/JobResultLineSchema.js";
import { decisionUsageOf } from "../../contract/outcome/DecisionUsageSchema.js";
import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import { writeOnceOutcomePut } from "../outcomes/writeOnce.js";

/**
 * The transaction item that writes a line's outcome once: the outcome store's write-once Put
 * ({@link writeOnceOutcomePut}), which returns the outcome that stands when its condition fails.
 */
export function outcomePutItem(outcomesTable: string, outcome: Outcome) {
  return { Put: writeOnceOutcomePut(outcomesTable, outcome) };
}

/**
 * The Put of a line item of `jobId`, ended `at`: once (no item stands at that line), or
 * `replacing` a dead-lettered one. A failed condition returns the item that stands (the redriven
 * line's case needs it).
 */
export function linePutItem(
  jobsTable: string,
  jobId: string,
  line: JobResultLine,
  audit: Partial<JobLineItem>,
  at: string,
  how: { replacing?: "dead_lettered" } = {},
) {
  const item: JobLineItem = { ...line, ...audit, job_id: jobId, ended_at: at };
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
      TableName: jobsTable,
      Item: item,
      ConditionExpression: condition.expression,
      ExpressionAttributeNames: condition.names,
      ...(condition.values === undefined ? {} : { ExpressionAttributeValues: condition.values }),
      ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    },
  };
}

/**
 * What the manifest reads of a line's outcome: policy version and hash, model and its hash, what
 * its endpoint request cost.
 */
export function lineAuditOf(outcome: Outcome): Partial<JobLineItem> {
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
