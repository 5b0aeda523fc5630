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
 * The count update of a line that ended with `status` (`dead_lettered`, or an outcome's status),
 * on its counter, updated `at`: `ended` and the status's count go up by one, and
 * `rejected_at_ingest` (`atIngest`) and `duplicates` (`duplicate`) when they apply. Conditional on
 * the counter existing: an Update would otherwise create one for a job that was never started.
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
  return counterUpdate(table, jobId, line, {
    sets,
    condition: "attribute_exists(job_id)",
    ...(Object.keys(names).length > 0 ? { names } : {}),
    // DynamoDB refuses a value the expression does not use.
    values: { ":one": 1, ":at": at, ...(status === "dead_lettered" ? {} : { ":zero": 0 }) },
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
    },
  };
}
