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
 *   results in input order, page by page.
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
