/**
 * The contracts the parts of this project share, and nothing else: zod schemas and constants that
 * the adapter, the functions, the operator tools and the CDK app all read. It imports zod and other
 * contract files only (no AWS SDK, no Powertools, no node-llama-cpp, no Node runtime module), so
 * that any part, the CDK synth included, can import it without pulling in another part's runtime;
 * `test/contract/contractImports.test.ts` checks that.
 *
 * - `wire/`: the adapter's wire formats (SemIf, System One, chat, the JSON text kept as written).
 * - `workItem/`: a work item as a producer writes it.
 * - `outcome/`: the outcome item with its statuses, its size limits, the table's keys and index;
 *   the shadow record (a candidate's answer for an item, kept beside its outcome, never one).
 * - `jobs/`: batch jobs (one per ingested object version): the job record, its table's keys, the
 *   results line, the manifest and the "Decision Job Completed" event.
 * - `endpoint/`: SageMaker's invocation limit and the margin the adapter's deadline keeps below it.
 * - `lanes/`: the pipeline's lanes (interactive, bulk) and how a call names its lane to the endpoint.
 * - `failures/`: the failure record of a record the decide function gave back (reason, attempts,
 *   time), kept in the outcomes table under its own key prefix.
 * - `metrics/`: the metric names the functions emit and the alarms read.
 * - `policy/`: the policy catalogue the policy side writes for the CDK app.
 * - `review/`: the review console's HTTP API routes, served by the router and declared by the CDK app.
 * - `settings/`: the settings kit (variable, parser, default, doc) and the entries of the server
 *   and the functions, which the CDK app's knobs reuse where they set one.
 */

export {
  ADAPTER_DEADLINE_MARGIN_SECONDS,
  MAX_ADAPTER_DEADLINE_SECONDS,
  SAGEMAKER_INVOCATION_TIMEOUT_SECONDS,
} from "./endpoint/invocationLimits.js";
export {
  FAILURE_CLASSES,
  FAILURE_REASON_CHARS,
  FAILURE_RECORD_KIND,
  FAILURE_RECORD_PREFIX,
  FAILURE_RECORD_RETENTION_SECONDS,
  FAILURE_RECORD_TTL_ATTRIBUTE,
  type FailureClass,
  type FailureRecord,
  FailureRecordSchema,
  failureKeyOfItem,
  failureKeyOfMessage,
  isFailureRecordKey,
} from "./failures/FailureRecordSchema.js";
export {
  JOB_COMPLETED_DETAIL_TYPE,
  JOB_EVENT_SOURCE,
  type JobCompletedDetail,
  JobCompletedDetailSchema,
} from "./jobs/JobCompletedEventSchema.js";
export {
  type JobManifest,
  JobManifestSchema,
  JobModelSchema,
  JobPolicyVersionSchema,
  JobTimingsSchema,
  type JobUsage,
  JobUsageSchema,
} from "./jobs/JobManifestSchema.js";
export {
  JOB_LINE_STATUSES,
  type JobLineItem,
  JobLineItemSchema,
  type JobLineStatus,
  JobResultAnswerSchema,
  type JobResultLine,
  JobResultLineSchema,
} from "./jobs/JobResultLineSchema.js";
export {
  emptyJobCounts,
  FINAL_JOB_STATUSES,
  type FinalJobStatus,
  isFinalJobStatus,
  JOB_ID_PATTERN,
  JOB_STATUSES,
  type Job,
  type JobCounts,
  JobCountsSchema,
  type JobOutcomeCounts,
  JobOutcomeCountsSchema,
  JobSchema,
  type JobStatus,
} from "./jobs/JobSchema.js";
export {
  JOB_MANIFEST_FILE,
  JOB_MESSAGE_ATTRIBUTES,
  JOB_RECORD_KIND,
  JOB_RECORD_LINE,
  JOB_RESULTS_FILE,
  JOB_RESULTS_PREFIX,
  JOBS_LIST_INDEX,
  JOBS_TABLE_KEYS,
} from "./jobs/jobsTableKeys.js";
export {
  type LaneShareInputs,
  type LaneShareSizing,
  laneShares,
  sizeLaneShare,
} from "./lanes/laneShares.js";
export {
  CUSTOM_ATTRIBUTES_HEADER,
  DEFAULT_ITEM_LANE,
  DEFAULT_REQUEST_LANE,
  JOB_LANE,
  LANE_ATTRIBUTE,
  LANES,
  type Lane,
  LaneSchema,
  laneAttributeOf,
  laneOfAttributes,
} from "./lanes/lanes.js";
export { CAPACITY_METRIC_DIMENSIONS, CAPACITY_METRICS } from "./metrics/capacityMetrics.js";
export { DECIDE_METRICS } from "./metrics/decideMetrics.js";
export { DRIFT_METRICS } from "./metrics/driftMetrics.js";
export { INGEST_METRICS } from "./metrics/ingestMetrics.js";
export { JOB_METRICS } from "./metrics/jobMetrics.js";
export { SHADOW_METRICS } from "./metrics/shadowMetrics.js";
export {
  type DecisionUsage,
  DecisionUsageSchema,
  decisionUsageOf,
} from "./outcome/DecisionUsageSchema.js";
export {
  AUDIT_QUEUE,
  MAX_KEPT_REVIEWS,
  MAX_KEPT_REVIEWS_BYTES,
  OUTCOME_STATUSES,
  type Outcome,
  type OutcomeAnswer,
  OutcomeAnswerSchema,
  OutcomeRequestSchema,
  type OutcomeReview,
  OutcomeReviewSchema,
  OutcomeSchema,
  type OutcomeSource,
  OutcomeSourceSchema,
  type OutcomeStatus,
  OutcomeTimingsSchema,
  REVIEWED_STATUS,
  STORED_OUTCOME_STATUSES,
  type StoredOutcome,
  StoredOutcomeAnswerSchema,
  StoredOutcomeSchema,
  type StoredOutcomeStatus,
} from "./outcome/OutcomeSchema.js";
export {
  MAX_OUTCOME_BYTES,
  REASON_CHARS,
  STATE_PREVIEW_CHARS,
  TRUNCATED_DISTRIBUTION_LABELS,
} from "./outcome/outcomeLimits.js";
export {
  CONFLICT_PREVIEW_CHARS,
  OUTCOME_CONFLICT_ENTRIES,
  OUTCOME_HISTORY_ENTRIES,
  type OutcomeConflict,
  OutcomeConflictSchema,
  type OutcomeHistoryEntry,
  OutcomeHistoryEntrySchema,
  OutcomeSupersedesSchema,
  SUPERSEDE_ANY,
  SUPERSEDE_ATTRIBUTE,
  WORK_ITEM_KEPT_BYTES,
} from "./outcome/outcomeRecordSchemas.js";
export {
  OUTCOMES_STATUS_INDEX,
  OUTCOMES_TABLE_KEYS,
  UNPARSED_POLICY,
} from "./outcome/outcomesTableKeys.js";
export {
  compareReviewOrderKeys,
  isReviewOrder,
  normalisedEntropy,
  REVIEW_ORDERS,
  type ReviewOrder,
  type ReviewOrderKey,
  reviewWorth,
} from "./outcome/reviewOrder.js";
export type {
  ItemView,
  PolicyStats,
  QuestionStats,
  QueueItem,
  QueuePage,
  WorthWindow,
} from "./outcome/reviewViews.js";
export {
  CANDIDATE_NAME_PATTERN,
  isShadowRecordKey,
  SHADOW_FAILURE_REASON_CHARS,
  SHADOW_RECORD_KIND,
  SHADOW_RECORD_PREFIX,
  SHADOW_RECORD_RETENTION_SECONDS,
  SHADOW_RECORD_TTL_ATTRIBUTE,
  type ShadowCandidate,
  ShadowCandidateSchema,
  ShadowFailureSchema,
  type ShadowRecord,
  ShadowRecordSchema,
  type ShadowResult,
  ShadowResultSchema,
  shadowKeyOf,
  shadowPartitionOf,
} from "./outcome/ShadowRecordSchema.js";
export {
  type PolicyCatalogueEntry,
  PolicyCatalogueEntrySchema,
  PolicyCatalogueSchema,
} from "./policy/PolicyCatalogueSchema.js";
export {
  matchReviewRoute,
  REVIEW_ROUTES,
  type ReviewRoute,
  type ReviewRouteMatch,
  type ReviewRouteName,
} from "./review/reviewRoutes.js";
export { CAPACITY_CONTROLLER_SETTINGS } from "./settings/capacityControllerSettings.js";
export { DECIDE_SETTINGS } from "./settings/decideSettings.js";
export { DELIVER_SETTINGS } from "./settings/deliverSettings.js";
export {
  DEFAULT_DRIFT_THRESHOLD,
  DRIFT_MONITOR_SETTINGS,
  decimalSetting,
  policyListSetting,
} from "./settings/driftMonitorSettings.js";
export { INGEST_SETTINGS } from "./settings/ingestSettings.js";
export { JOBS_MONITOR_SETTINGS } from "./settings/jobsMonitorSettings.js";
export { parseSetting } from "./settings/parseSetting.js";
export {
  type EnvironmentProblem,
  type EnvironmentValues,
  readEnvironment,
} from "./settings/readEnvironment.js";
export { RESULTS_WRITER_SETTINGS } from "./settings/resultsWriterSettings.js";
export { REVIEW_CONSOLE_SETTINGS } from "./settings/reviewConsoleSettings.js";
export { defaultTextOf, type Setting, type SettingDefault, variableOf } from "./settings/Setting.js";
export { SettingValueError } from "./settings/SettingValueError.js";
export {
  LLAMA_BUILDS,
  LOG_LEVELS,
  PARALLEL_BATCHING_MODES,
  SERVER_SETTING_ENTRIES,
  type ServerSettingEntry,
} from "./settings/serverSettings.js";
export {
  booleanSetting,
  integerSetting,
  nonEmptyTextSetting,
  oneOfSetting,
  patternSetting,
  textSetting,
} from "./settings/settingSchemas.js";
export * from "./wire/index.js";
export {
  describeIssues,
  isStorableKey,
  MAX_ITEM_ID_BYTES,
  MAX_POLICY_NAME_BYTES,
  type WorkItemInput,
  WorkItemSchema,
} from "./workItem/WorkItemSchema.js";
