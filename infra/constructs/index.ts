/** The constructs of the decision pipeline, one per architectural task. */

export type {
  CapacityControllerLane,
  CapacityControllerProps,
} from "./CapacityController.js";
export {
  CAPACITY_CONTROLLER_INTERVAL,
  CAPACITY_CONTROLLER_SERVICE,
  CapacityController,
} from "./CapacityController.js";
export type { DecideFunctionProps } from "./DecideFunction.js";
export { DecideFunction } from "./DecideFunction.js";
export type { DecisionEndpointProps, DecisionInstancePool } from "./DecisionEndpoint.js";
export { DECISION_VARIANT_NAME, DecisionEndpoint } from "./DecisionEndpoint.js";
export {
  DRIFT_MONITOR_INTERVAL,
  DriftMonitorFunction,
  type DriftMonitorFunctionProps,
  type DriftMonitorHost,
} from "./DriftMonitorFunction.js";
export { FRONT_DOOR_TABLE_ACTIONS, FrontDoor, type FrontDoorProps } from "./FrontDoor.js";
export { grantJobCounting } from "./grantJobCounting.js";
export type { IncidentRuleProps } from "./IncidentRule.js";
export { IncidentRule } from "./IncidentRule.js";
export { IngestBucket } from "./IngestBucket.js";
export type { IngestFunctionProps } from "./IngestFunction.js";
export { INGEST_TIMEOUT, IngestFunction } from "./IngestFunction.js";
export type { IngestWorkflowProps } from "./IngestWorkflow.js";
export { INGEST_WORKFLOW_TIMEOUT, IngestWorkflow } from "./IngestWorkflow.js";
export type { JobCompletedEventsProps } from "./JobCompletedEvents.js";
export { COMPLETED_JOB_PATTERN, JobCompletedEvents } from "./JobCompletedEvents.js";
export type { JobResultsFunctionProps } from "./JobResultsFunction.js";
export {
  ENDED_JOB_PATTERN,
  JobResultsFunction,
  RESULTS_WRITER_RETRY_ATTEMPTS,
  RESULTS_WRITER_TIMEOUT,
} from "./JobResultsFunction.js";
export type { JobsMonitorFunctionProps } from "./JobsMonitorFunction.js";
export { JOBS_MONITOR_INTERVAL, JobsMonitorFunction } from "./JobsMonitorFunction.js";
export type { JobsTableProps } from "./JobsTable.js";
export { JobsTable } from "./JobsTable.js";
export type {
  ComponentCopyResources,
  LaneComponent,
  LaneComponentsProps,
} from "./LaneComponents.js";
export { LaneComponents } from "./LaneComponents.js";
export {
  DELIVER_FUNCTION_TIMEOUT,
  DELIVERY_MAX_RECEIVE_COUNT,
  type DeliveryTargetParts,
  OutcomeDeliveries,
  type OutcomeDeliveriesProps,
} from "./OutcomeDeliveries.js";
export type { OutcomesTableProps } from "./OutcomesTable.js";
export { OUTCOME_EVENT_DETAIL_TYPE, OUTCOME_EVENT_SOURCE, OutcomesTable } from "./OutcomesTable.js";
export type { PipelineAlarmsProps } from "./PipelineAlarms.js";
export { PipelineAlarms } from "./PipelineAlarms.js";
export type { PipelineDashboardProps } from "./PipelineDashboard.js";
export { PipelineDashboard } from "./PipelineDashboard.js";
export type { PipelineFunctionProps } from "./PipelineFunction.js";
export { BUNDLED_POLICY_DIR, PipelineFunction } from "./PipelineFunction.js";
export type { PipelineMetrics } from "./pipelineMetrics.js";
export { pipelineMetrics } from "./pipelineMetrics.js";
export type { ReviewConsolePageConfig, ReviewConsoleProps } from "./ReviewConsole.js";
export { ReviewConsole } from "./ReviewConsole.js";
export type { ReviewConsoleApiProps } from "./ReviewConsoleApi.js";
export { REVIEW_CONSOLE_ROUTES, REVIEW_CONSOLE_TABLE_ACTIONS, ReviewConsoleApi } from "./ReviewConsoleApi.js";
export type { ReviewConsoleSiteProps } from "./ReviewConsoleSite.js";
export { REVIEW_CONSOLE_HSTS_MAX_AGE, ReviewConsoleSite } from "./ReviewConsoleSite.js";
export type { ReviewerPoolProps } from "./ReviewerPool.js";
export { REVIEWERS_GROUP_NAME, ReviewerPool } from "./ReviewerPool.js";
export type { StandardEndpointProps } from "./StandardEndpoint.js";
export { StandardEndpoint } from "./StandardEndpoint.js";
export type { WorkQueueProps } from "./WorkQueue.js";
export { MIN_MAX_RECEIVE_COUNT, VISIBILITY_TIMEOUT_FACTOR, WorkQueue } from "./WorkQueue.js";
