/**
 * Key attributes of the outcomes table: one item per (policy, work item id). A record that could
 * not be parsed at all is stored under policy {@link UNPARSED_POLICY} with the SQS message id.
 */
export const OUTCOMES_TABLE_KEYS = {
  /** Partition key (S): the policy name. */
  partition: "policy",
  /** Sort key (S): the work item id. */
  sort: "id",
} as const;

/**
 * The human review queue: outcomes of one policy and status, newest first
 * (`ScanIndexForward: false`). Projection ALL.
 */
export const OUTCOMES_STATUS_INDEX = {
  name: "by-status",
  /** Partition key (S): `<policy>#<status>`. */
  partition: "policy_status",
  /** Sort key (S): ISO-8601 UTC time of the last change. */
  sort: "updated_at",
} as const;

/** The policy name under which records that cannot be parsed are recorded (id = the SQS message id). */
export const UNPARSED_POLICY = "_unparsed";
