/** The CDK app of the decision pipeline: its stack, constructs and configuration. */

export type {
  DecideCapacity,
  DecideCapacityInputs,
  LaneCapacity,
} from "./capacity/deriveDecideCapacity.js";
export {
  DecideCapacityError,
  deriveDecideCapacity,
  deriveLaneCapacity,
  SQS_MAX_CONCURRENCY_RANGE,
} from "./capacity/deriveDecideCapacity.js";
export type {
  InfraConfigProblem,
  InfraKnob,
  InfraSettings,
  PinnedImage,
  PolicyCatalogueEntry,
} from "./config/index.js";
export {
  ImageReferenceError,
  INFRA_KNOBS,
  InfraConfigError,
  PolicyCatalogueError,
  parsePinnedImage,
  readConsoleSite,
  readInfraSettings,
  readPolicyCatalogue,
} from "./config/index.js";
export { DECISION_METRICS, INCIDENT_LANE } from "./constants.js";
export type { DecisionInstancePool } from "./constructs/index.js";
export {
  DecideFunction,
  DecisionEndpoint,
  IncidentRule,
  IngestBucket,
  IngestFunction,
  IngestWorkflow,
  JobCompletedEvents,
  JobResultsFunction,
  JobsMonitorFunction,
  JobsTable,
  OUTCOME_EVENT_DETAIL_TYPE,
  OUTCOME_EVENT_SOURCE,
  OutcomesTable,
  PipelineAlarms,
  PipelineDashboard,
  PipelineFunction,
  REVIEW_CONSOLE_ROUTES,
  REVIEW_CONSOLE_TABLE_ACTIONS,
  REVIEWERS_GROUP_NAME,
  ReviewConsole,
  ReviewConsoleApi,
  ReviewConsoleSite,
  ReviewerPool,
  StandardEndpoint,
  WorkQueue,
} from "./constructs/index.js";
export type { DecisionLane, DecisionsSources, DecisionsStackProps } from "./DecisionsStack.js";
export { DecisionsStack } from "./DecisionsStack.js";
