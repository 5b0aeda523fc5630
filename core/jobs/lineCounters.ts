import { emptyJobCounterCounts, type JobCounter } from "../../contract/jobs/JobCounterSchema.js";
import { jobCounterLine, jobCounterShardOf } from "../../contract/jobs/jobsTableKeys.js";

/**
 * Where a job's counters live: the jobs table and the number of counter items per job (every
 * writer of a job's lines uses the number the job was started with).
 */
export interface CounterTable {
  /** The jobs table (`jobsTableDefinition`). */
  jobsTable: string;
  /** Counter items per job (1 to 99). */
  counterShards: number;
}

/**
 * The key of the counter that counts `line` of `jobId`: counter `(line − 1) mod counterShards`,
 * at sort key −1 − that counter.
 *
 * @example
 * counterKeyOf("job-1", 17, 16); // { job_id: "job-1", line: -1 }
 */
export function counterKeyOf(jobId: string, line: number, counterShards: number) {
  return { job_id: jobId, line: jobCounterLine(jobCounterShardOf(line, counterShards)) };
}

/**
 * The Puts that create a job's counters, all zero, updated `at`: one per counter, written in the
 * transaction that creates the job record.
 */
export function newCounterPuts(table: CounterTable, jobId: string, at: string) {
  return Array.from({ length: table.counterShards }, (_, shard) => {
    const counter: JobCounter = {
      job_id: jobId,
      line: jobCounterLine(shard),
      counts: emptyJobCounterCounts(),
      updated_at: at,
    };
    return { Put: { TableName: table.jobsTable, Item: counter } };
  });
}

/**
 * The counter attribute that holds the job's line count once ingest has read every line
 * ({@link lineLimitUpdate}): a line beyond it is not counted.
 */
export const LINE_LIMIT_ATTRIBUTE = "line_limit";

/**
 * The count update of a line that ended with `status` (`dead_lettered`, or an outcome's status),
 * on its counter, updated `at`: `ended` and the status's count go up by one, and
 * `rejected_at_ingest` (`atIngest`) and `duplicates` (`duplicate`) when they apply. Conditional on
 * the counter existing (an Update would otherwise create one for a job that was never started)
 * and on `line` being within the job's line count when the counter holds it (`line_limit`, set
 * by `markRead`): a line number outside the job fails the condition and is not counted.
 */
export function lineCountUpdate(
  table: CounterTable,
  jobId: string,
  line: number,
  status: string,
  how: { atIngest: boolean; duplicate: boolean },
  at: string,
) {
  const names: Record<string, string> = {};
  const sets = ["counts.ended = counts.ended + :one", "updated_at = :at"];
  if (status === "dead_lettered") sets.push("counts.dead_lettered = counts.dead_lettered + :one");
  else {
    names["#status"] = status;
    sets.push("counts.outcomes.#status = if_not_exists(counts.outcomes.#status, :zero) + :one");
  }
  if (how.atIngest) sets.push("counts.rejected_at_ingest = counts.rejected_at_ingest + :one");
  if (how.duplicate) sets.push("counts.duplicates = counts.duplicates + :one");
  names["#limit"] = LINE_LIMIT_ATTRIBUTE;
  return counterUpdate(table, jobId, line, {
    sets,
    condition: "attribute_exists(job_id) AND (attribute_not_exists(#limit) OR #limit >= :line)",
    names,
    // DynamoDB refuses a value the expression does not use.
    values: { ":one": 1, ":at": at, ":line": line, ...(status === "dead_lettered" ? {} : { ":zero": 0 }) },
  });
}

/**
 * The count update of a dead-lettered line that ended with an outcome after all, on the line's
 * counter (the one that counted it dead-lettered), updated `at`: `dead_lettered` down by one,
 * `status` (and `duplicates` for a `duplicate`) up by one, `ended` as it was. Conditional on the
 * counter holding a dead letter.
 */
export function moveCountUpdate(
  table: CounterTable,
  jobId: string,
  line: number,
  status: string,
  how: { duplicate: boolean },
  at: string,
) {
  const sets = [
    "counts.dead_lettered = counts.dead_lettered - :one",
    "counts.outcomes.#status = if_not_exists(counts.outcomes.#status, :zero) + :one",
    "updated_at = :at",
  ];
  if (how.duplicate) sets.push("counts.duplicates = counts.duplicates + :one");
  return counterUpdate(table, jobId, line, {
    sets,
    condition: "attribute_exists(job_id) AND counts.dead_lettered >= :one",
    names: { "#status": status },
    values: { ":one": 1, ":zero": 0, ":at": at },
  });
}

/** The Update of the counter of `line`: `SET` its `sets`, under `condition`. */
function counterUpdate(
  table: CounterTable,
  jobId: string,
  line: number,
  update: {
    sets: string[];
    condition: string;
    names?: Record<string, string>;
    values: Record<string, unknown>;
  },
) {
  return {
    Update: {
      TableName: table.jobsTable,
      Key: counterKeyOf(jobId, line, table.counterShards),
      UpdateExpression: `SET ${update.sets.join(", ")}`,
      ConditionExpression: update.condition,
      ...(update.names === undefined ? {} : { ExpressionAttributeNames: update.names }),
      ExpressionAttributeValues: update.values,
      // A failed condition returns the counter as it stood: its `line_limit` tells why.
      ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    },
  };
}

/**
 * Sets the job's last line number (`lines`: its line count, or more where the object has blank
 * lines) on one counter (`shard`), updated `at`: from then on its count updates refuse a line
 * beyond it ({@link lineCountUpdate}). Conditional on the counter existing.
 */
export function lineLimitUpdate(
  table: CounterTable,
  jobId: string,
  shard: number,
  lines: number,
  at: string,
) {
  return {
    TableName: table.jobsTable,
    Key: { job_id: jobId, line: jobCounterLine(shard) },
    UpdateExpression: "SET #limit = :lines, updated_at = :at",
    ConditionExpression: "attribute_exists(job_id)",
    ExpressionAttributeNames: { "#limit": LINE_LIMIT_ATTRIBUTE },
    ExpressionAttributeValues: { ":lines": lines, ":at": at },
  };
}

/**
 * The count update that takes back a line counted before its job's line count was known and
 * found beyond it (`markRead`): `ended` and the count of `status` (and `duplicates` for a
 * `duplicate`) down by one, updated `at`. Conditional on the counter holding such a count.
 */
export function uncountUpdate(
  table: CounterTable,
  jobId: string,
  line: number,
  status: string,
  how: { duplicate: boolean },
  at: string,
) {
  const names: Record<string, string> = {};
  const sets = ["counts.ended = counts.ended - :one", "updated_at = :at"];
  let condition = "attribute_exists(job_id) AND counts.ended >= :one";
  if (status === "dead_lettered") {
    sets.push("counts.dead_lettered = counts.dead_lettered - :one");
    condition += " AND counts.dead_lettered >= :one";
  } else {
    names["#status"] = status;
    sets.push("counts.outcomes.#status = counts.outcomes.#status - :one");
    condition += " AND counts.outcomes.#status >= :one";
  }
  if (how.duplicate) sets.push("counts.duplicates = counts.duplicates - :one");
  return counterUpdate(table, jobId, line, {
    sets,
    condition,
    ...(Object.keys(names).length > 0 ? { names } : {}),
    values: { ":one": 1, ":at": at },
  });
}
