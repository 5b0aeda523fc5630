/**
 * The jobs table: a table of its own (not the outcomes table), holding per job one job record and
 * one item per ended line.
 *
 * Why not under a key prefix of the outcomes table: the outcomes table's stream is published to the
 * outcomes bus as "Decision Outcome Recorded" events for every insert and change, so a job's count
 * updates (one per line) would reach every outcome subscriber; the outcomes table's readers (the
 * review queue, `outcomes list`, exports) would have to step over items that are not outcomes; and
 * the line items are working state of a job, which may expire (a TTL) while outcomes stay. A
 * DynamoDB transaction spans tables, so a line's outcome and its count still move together.
 *
 * Items, keyed by (`job_id`, `line`):
 * - `line` = {@link JOB_RECORD_LINE} (0): the job record (`JobSchema`);
 * - `line` ≥ 1: the line item of that 1-based input line (`JobLineItemSchema`), written once, in
 *   the transaction that counts the line. A Query of `job_id` with `line` ≥ 1 gives the job's
 *   results in input order, page by page;
 * - `line` ≤ −1: the job's counters (`JobCounterSchema`, {@link JOB_COUNTER_SHARDS} of them, at
 *   {@link jobCounterLine}), created with the job record. A line's transaction updates one of them,
 *   never the job record; the job's counts are their sum. A Query of `job_id` with `line` ≤ 0
 *   gives the record and its counters in one strongly consistent read.
 */
export const JOBS_TABLE_KEYS = {
  /** Partition key (S): the job id. */
  partition: "job_id",
  /** Sort key (N): 0 for the job record, the 1-based input line for a line item. */
  sort: "line",
} as const;

/** The sort key of a job's own record. */
export const JOB_RECORD_LINE = 0;

/**
 * Counter items per job (`line` −1 … −16). A line is counted on counter {@link jobCounterShardOf}
 * of its line number, so transactions of lines in flight at the same time seldom touch the same
 * item (DynamoDB cancels a transaction that meets another on an item with `TransactionConflict`).
 * Every writer of a job must use the same number; a transaction takes at most 100 actions, so the
 * job record and its counters, created in one, are at most 100.
 */
export const JOB_COUNTER_SHARDS = 16;

/** The sort key of counter `shard` (0-based): −1 − `shard`. */
export function jobCounterLine(shard: number): number {
  return -1 - shard;
}

/**
 * The counter (0-based) that counts a job's 1-based `line` among `shards`: `(line − 1) mod shards`.
 * Consecutive lines (ended together, as a batch's lines are) go to different counters, and a line
 * always goes to the same one, so moving a redriven dead letter's count stays on the counter that
 * holds it.
 */
export function jobCounterShardOf(line: number, shards: number = JOB_COUNTER_SHARDS): number {
  return (((line - 1) % shards) + shards) % shards;
}

/**
 * The job list: job records only (a sparse index — line items do not carry `record_kind`), newest
 * first (`ScanIndexForward: false`). Projection INCLUDE {@link JOBS_LIST_INDEX.projected}: the
 * attributes that change rarely, so a count update does not write to the index; read `counts`
 * from the job record.
 */
export const JOBS_LIST_INDEX = {
  name: "by-created",
  /** Partition key (S): {@link JOB_RECORD_KIND} on every job record. */
  partition: "record_kind",
  /** Sort key (S): `created_at`. */
  sort: "created_at",
  /** Non-key attributes kept in the index. */
  projected: ["job_id", "source", "status", "completed_at", "results_uri", "manifest_uri"],
} as const;

/** The value of `record_kind` on a job record. */
export const JOB_RECORD_KIND = "job";

/**
 * Where a job's files go: `<prefix><job_id>/results.jsonl` and `<prefix><job_id>/manifest.json`
 * in the ingest bucket (the results writer may write under this prefix only).
 */
export const JOB_RESULTS_PREFIX = "results/";

/** The results object's name under the job's folder. */
export const JOB_RESULTS_FILE = "results.jsonl";

/** The manifest's name under the job's folder. */
export const JOB_MANIFEST_FILE = "manifest.json";

/**
 * SQS message attributes of a work item that came from a job's line (set by ingest; copied by
 * a re-queue and kept by the dead-letter queue), so that its outcome counts toward the job.
 */
export const JOB_MESSAGE_ATTRIBUTES = {
  /** String: the job id. */
  jobId: "decisions.job_id",
  /** Number: the 1-based input line. */
  line: "decisions.job_line",
} as const;
