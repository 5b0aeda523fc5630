import {
  emptyJobCounts,
  type FinalJobStatus,
  type Job,
  type JobCounts,
} from "../../contract/jobs/JobSchema.js";
import { JOB_RECORD_KIND, JOB_RECORD_LINE } from "../../contract/jobs/jobsTableKeys.js";
import { type JobObject, jobIdOf } from "./jobIdOf.js";
import type { JobRecordUpdate } from "./ledgerWrites.js";

/** What a job's final status records: when, and the results' URIs, the reason, the counts. */
export interface JobCompletion {
  status: FinalJobStatus;
  completed_at: string;
  results_uri?: string;
  manifest_uri?: string;
  reason?: string;
  /** The job's counts as read (its counters' sum), copied onto the record. */
  counts?: JobCounts;
}

/** The job of an object version as it starts, created `at`: status `reading`, counts zero. */
export function newJobOf(object: JobObject, at: string): Job {
  return {
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
}

/** The Put that creates a job's record (`line` 0, `record_kind` set) unless the job exists. */
export function newJobRecordPut(jobsTable: string, job: Job) {
  return {
    Put: {
      TableName: jobsTable,
      Item: { ...job, line: JOB_RECORD_LINE, record_kind: JOB_RECORD_KIND },
      ConditionExpression: "attribute_not_exists(job_id)",
    },
  };
}

/**
 * `reading` → `deciding` with the line count (`sent` = `lines` − `rejected_at_ingest`), read
 * `at`; conditional on the job being `reading`.
 */
export function markReadUpdate(lines: number, at: string): JobRecordUpdate {
  return {
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
  };
}

/**
 * `reading` → `failed` with `reason` and `counts` (read and completed `at`); conditional on the
 * job being `reading`.
 */
export function failReadingUpdate(counts: JobCounts, reason: string, at: string): JobRecordUpdate {
  return {
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
  };
}

/**
 * Sets `ended_at` (`at`), once: conditional on it being unset and the job `deciding` with `lines`.
 */
export function endedUpdate(lines: number, at: string): JobRecordUpdate {
  return {
    UpdateExpression: "SET ended_at = :at, updated_at = :at",
    ConditionExpression: "#status = :deciding AND attribute_not_exists(ended_at) AND counts.#lines = :lines",
    ExpressionAttributeNames: { "#status": "status", "#lines": "lines" },
    ExpressionAttributeValues: { ":deciding": "deciding", ":at": at, ":lines": lines },
  };
}

/**
 * Sets a final status and the fields of `completion` that are given; conditional on the job
 * existing and not being final yet.
 */
export function completeUpdate(completion: JobCompletion): JobRecordUpdate {
  const names: Record<string, string> = { "#status": "status" };
  const values: Record<string, unknown> = {
    ":status": completion.status,
    ":at": completion.completed_at,
    ":final1": "complete",
    ":final2": "complete_with_errors",
    ":final3": "failed",
  };
  const sets = ["#status = :status", "completed_at = :at", "updated_at = :at"];
  for (const name of ["results_uri", "manifest_uri", "reason", "counts"] as const) {
    const value = completion[name];
    if (value === undefined) continue;
    sets.push(`${name} = :${name}`);
    values[`:${name}`] = value;
  }
  return {
    UpdateExpression: `SET ${sets.join(", ")}`,
    ConditionExpression: "attribute_exists(job_id) AND NOT (#status IN (:final1, :final2, :final3))",
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
