/**
 * The local stack: the pipeline's parts on 127.0.0.1 — Amazon DynamoDB Local, fauxqs (SQS and S3),
 * a SageMaker runtime gateway in front of the adapter, and a poller with the semantics of Lambda's
 * SQS event source mapping — for `npm start`, `decisions up` and the integration tests.
 */

export { buildDemoBatch, withIdSuffix } from "./buildDemoBatch.js";
export type { LambdaContextOptions } from "./createLambdaContext.js";
export { createLambdaContext } from "./createLambdaContext.js";
export type { LocalClients, LocalEndpoints } from "./createLocalClients.js";
export { createLocalClients, LOCAL_CREDENTIALS } from "./createLocalClients.js";
export type { FunctionLogLevel, LocalDecideHandlerOptions } from "./createLocalDecideHandler.js";
export { createLocalDecideHandler } from "./createLocalDecideHandler.js";
export type { LocalIngestHandler, LocalIngestHandlerOptions } from "./createLocalIngestHandler.js";
export { createLocalIngestHandler } from "./createLocalIngestHandler.js";
export type { CreateWorkQueueOptions, WorkQueue } from "./createWorkQueue.js";
export { createWorkQueue } from "./createWorkQueue.js";
export type { LaneCapacity, LocalAdmission } from "./deriveLocalLaneCapacity.js";
export { deriveLocalLaneCapacity, LOCAL_ADMISSION } from "./deriveLocalLaneCapacity.js";
export {
  IngestWorkflowError,
  JavaNotFoundError,
  LocalPartError,
  PartStartError,
  PortInUseError,
} from "./errors.js";
export type { DeadLetter, DemoSummaryContext } from "./formatDemoSummary.js";
export { formatDemoSummary } from "./formatDemoSummary.js";
export type { LaneDemoReport } from "./formatLaneSummary.js";
export { formatLaneSummary } from "./formatLaneSummary.js";
export type { IngestedObjectReport, IngestTriggerOptions } from "./IngestTrigger.js";
export { DEFAULT_INGEST_PREFIX, DEFAULT_INGEST_SUFFIX, IngestTrigger } from "./IngestTrigger.js";
export type { ObjectCreatedEvent } from "./objectCreatedEvent.js";
export { objectCreatedEvent } from "./objectCreatedEvent.js";
export type { StackModel } from "./prepareStackModel.js";
export { DEMO_MODEL_KIND, DEMO_MODEL_NOTICE, prepareStackModel } from "./prepareStackModel.js";
export type { BatchOutcome, InvocationResult } from "./readBatchResponse.js";
export { readBatchResponse } from "./readBatchResponse.js";
export type { DemoInputs, DemoMessage, DemoObject, ReadDemoInputsOptions } from "./readDemoInputs.js";
export { readDemoInputs } from "./readDemoInputs.js";
export type { CreatedObject } from "./readObjectCreated.js";
export { readObjectCreated } from "./readObjectCreated.js";
export type { DemoOutput, DemoResult, RunDemoOptions } from "./runDemo.js";
export { runDemo } from "./runDemo.js";
export type { IngestWorkflowResult, RunIngestWorkflowOptions } from "./runIngestWorkflow.js";
export { runIngestWorkflow } from "./runIngestWorkflow.js";
export type {
  BatchReport,
  PollerStats,
  SqsBatchHandler,
  SqsEventSourcePollerOptions,
} from "./SqsEventSourcePoller.js";
export { FunctionTimeoutError, SqsEventSourcePoller } from "./SqsEventSourcePoller.js";
export type { S3PutObject } from "./s3PutEvent.js";
export { s3PutEvent } from "./s3PutEvent.js";
export type { AdapterProcess, StartAdapterProcessOptions } from "./startAdapterProcess.js";
export { startAdapterProcess } from "./startAdapterProcess.js";
export type { DynamoDbLocal, StartDynamoDbLocalOptions } from "./startDynamoDbLocal.js";
export { startDynamoDbLocal } from "./startDynamoDbLocal.js";
export type { Fauxqs, StartFauxqsOptions } from "./startFauxqs.js";
export { startFauxqs } from "./startFauxqs.js";
export type { GatewayProcess, StartGatewayProcessOptions, UpstreamFailures } from "./startGatewayProcess.js";
export { startGatewayProcess } from "./startGatewayProcess.js";
export type {
  ConnectionInfo,
  LocalIngestOptions,
  LocalLane,
  LocalPollerSettings,
  LocalStack,
  StackHandlerContext,
  StartLocalStackOptions,
} from "./startLocalStack.js";
export { startLocalStack } from "./startLocalStack.js";
export type {
  SageMakerGateway,
  StartSageMakerGatewayOptions,
  UpstreamFailure,
} from "./startSageMakerGateway.js";
export { startSageMakerGateway } from "./startSageMakerGateway.js";
export type { IncidentTiming, ProbeItem, TimeIncidentsOptions } from "./timeIncidents.js";
export { probeIncidents, timeIncidents } from "./timeIncidents.js";
export type { SqsRecordSource } from "./toSqsRecord.js";
export { toSqsRecord } from "./toSqsRecord.js";
