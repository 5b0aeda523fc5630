/**
 * The local stack: the pipeline's parts on 127.0.0.1 — Amazon DynamoDB Local, fauxqs (SQS and S3),
 * a SageMaker runtime gateway in front of the adapter, and a poller with the semantics of Lambda's
 * SQS event source mapping — for `npm start`, `decisions up` and the integration tests.
 */

export { buildDemoBatch, withIdSuffix } from "./demo/buildDemoBatch.js";
export type { DeadLetter, DemoSummaryContext } from "./demo/formatDemoSummary.js";
export { formatDemoSummary } from "./demo/formatDemoSummary.js";
export type { LaneDemoReport } from "./demo/formatLaneSummary.js";
export { formatLaneSummary } from "./demo/formatLaneSummary.js";
export type { DemoInputs, DemoMessage, DemoObject, ReadDemoInputsOptions } from "./demo/readDemoInputs.js";
export { readDemoInputs } from "./demo/readDemoInputs.js";
export type { DemoOutput, DemoResult, RunDemoOptions } from "./demo/runDemo.js";
export { runDemo } from "./demo/runDemo.js";
export type { IncidentTiming, ProbeItem, TimeIncidentsOptions } from "./demo/timeIncidents.js";
export { probeIncidents, timeIncidents } from "./demo/timeIncidents.js";
export {
  IngestWorkflowError,
  JavaNotFoundError,
  LocalPartError,
  PartStartError,
  PortInUseError,
  StackTemplateError,
  TemplateResolveError,
} from "./errors.js";
export type { LambdaContextOptions } from "./eventSource/createLambdaContext.js";
export { createLambdaContext } from "./eventSource/createLambdaContext.js";
export type { CreateWorkQueueOptions, WorkQueue } from "./eventSource/createWorkQueue.js";
export { createWorkQueue } from "./eventSource/createWorkQueue.js";
export type { BatchOutcome, InvocationResult } from "./eventSource/readBatchResponse.js";
export { readBatchResponse } from "./eventSource/readBatchResponse.js";
export type {
  BatchReport,
  PollerStats,
  SqsBatchHandler,
  SqsEventSourcePollerOptions,
} from "./eventSource/SqsEventSourcePoller.js";
export { FunctionTimeoutError, SqsEventSourcePoller } from "./eventSource/SqsEventSourcePoller.js";
export type { SqsRecordSource } from "./eventSource/toSqsRecord.js";
export { toSqsRecord } from "./eventSource/toSqsRecord.js";
export { type AccessDeniedDetails, AccessDeniedException } from "./iam/AccessDeniedException.js";
export { DeployedNames, type LocalResourceNames } from "./iam/DeployedNames.js";
export { type IamRequest, iamRequestsOf, type SdkCall } from "./iam/iamRequestsOf.js";
export {
  type AuthorizableClient,
  type FunctionIam,
  type IamAuthorizationRequest,
  type IamAuthorizer,
  type IamCallsSnapshot,
  type IamDecision,
  IamLedger,
  LocalIam,
  type LocalIamOptions,
  type ObservedDenial,
} from "./iam/LocalIam.js";
export { type DeployTarget, deployTargetOf, TemplateResolver } from "./iam/TemplateResolver.js";
export {
  decideFunctionOf,
  TEMPLATE_FUNCTIONS,
  type TemplateFunction,
  type TemplateFunctionName,
  templateFunctionOf,
} from "./iam/templateFunctions.js";
export type { IngestedObjectReport, IngestTriggerOptions } from "./ingest/IngestTrigger.js";
export { DEFAULT_INGEST_PREFIX, DEFAULT_INGEST_SUFFIX, IngestTrigger } from "./ingest/IngestTrigger.js";
export type { LocalDeployment, LocalStateMachine, LocalTaskCall } from "./ingest/localStateMachine.js";
export { localStateMachine } from "./ingest/localStateMachine.js";
export type { ObjectCreatedEvent } from "./ingest/objectCreatedEvent.js";
export { objectCreatedEvent } from "./ingest/objectCreatedEvent.js";
export type { CreatedObject } from "./ingest/readObjectCreated.js";
export { readObjectCreated } from "./ingest/readObjectCreated.js";
export type { IngestWorkflowResult, RunIngestWorkflowOptions } from "./ingest/runIngestWorkflow.js";
export { runIngestWorkflow } from "./ingest/runIngestWorkflow.js";
export type { S3PutObject } from "./ingest/s3PutEvent.js";
export { s3PutEvent } from "./ingest/s3PutEvent.js";
export type { AdapterProcess, StartAdapterProcessOptions } from "./services/startAdapterProcess.js";
export { startAdapterProcess } from "./services/startAdapterProcess.js";
export type { DynamoDbLocal, StartDynamoDbLocalOptions } from "./services/startDynamoDbLocal.js";
export { startDynamoDbLocal } from "./services/startDynamoDbLocal.js";
export type { Fauxqs, StartFauxqsOptions } from "./services/startFauxqs.js";
export { startFauxqs } from "./services/startFauxqs.js";
export type {
  GatewayProcess,
  StartGatewayProcessOptions,
  UpstreamFailures,
} from "./services/startGatewayProcess.js";
export { startGatewayProcess } from "./services/startGatewayProcess.js";
export type {
  SageMakerGateway,
  StartSageMakerGatewayOptions,
  UpstreamFailure,
} from "./services/startSageMakerGateway.js";
export { startSageMakerGateway } from "./services/startSageMakerGateway.js";
export type { CfnResource, CfnTemplate } from "./stack/cfnTemplate.js";
export type { LocalClients, LocalEndpoints } from "./stack/createLocalClients.js";
export { createLocalClients, LOCAL_CREDENTIALS } from "./stack/createLocalClients.js";
export type { FunctionLogLevel, LocalDecideHandlerOptions } from "./stack/createLocalDecideHandler.js";
export { createLocalDecideHandler } from "./stack/createLocalDecideHandler.js";
export type { LocalIngestHandler, LocalIngestHandlerOptions } from "./stack/createLocalIngestHandler.js";
export { createLocalIngestHandler } from "./stack/createLocalIngestHandler.js";
export type { LaneCapacity, LocalAdmission } from "./stack/deriveLocalLaneCapacity.js";
export { deriveLocalLaneCapacity, LOCAL_ADMISSION } from "./stack/deriveLocalLaneCapacity.js";
export type {
  DefinitionPiece,
  EventSourcePlan,
  FunctionPlan,
  IngestPlan,
  LanePlan,
  LocalStackPlan,
  PseudoParameter,
  QueuePlan,
  RoutePlan,
  StateMachinePlan,
  TablePlan,
} from "./stack/LocalStackPlan.js";
export { type LoadStackTemplateOptions, loadStackTemplate } from "./stack/loadStackTemplate.js";
export type { StackModel } from "./stack/prepareStackModel.js";
export { DEMO_MODEL_KIND, DEMO_MODEL_NOTICE, prepareStackModel } from "./stack/prepareStackModel.js";
export { readStackTemplate } from "./stack/readStackTemplate.js";
export { withRole } from "./stack/StackHandlerContext.js";
export type {
  ConnectionInfo,
  LocalIngestOptions,
  LocalLane,
  LocalPollerSettings,
  LocalStack,
  StackHandlerContext,
  StartLocalStackOptions,
} from "./stack/startLocalStack.js";
export { startLocalStack } from "./stack/startLocalStack.js";
