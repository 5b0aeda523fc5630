/**
 * The HTTP adapter: the decision engine behind the SageMaker real-time inference contract
 * (`GET /ping`, `POST /invocations`, plus `/v1/systemone` and `/v1/chat/completions`).
 */

export { findReservedToken, RESERVED_TOKENS } from "../../contract/wire/reservedText.js";
export {
  AdmissionGate,
  type AdmissionGateOptions,
  AdmissionTicket,
  type LaneAdmission,
} from "./AdmissionGate.js";
export { adoptTextStates } from "./adoptTextStates.js";
export { answerInvocation, type InvocationAnswer, type InvocationSummary } from "./answerInvocation.js";
export { BodyReadBudget, type BodyReadBudgetOptions, BodyReadLease } from "./BodyReadBudget.js";
export { type ChatCompletionResponse, chatCompletionResponse } from "./chatCompletionResponse.js";
export { checkTokenBudget } from "./checkTokenBudget.js";
export { type Classification, classifyInvocation } from "./classifyInvocation.js";
export { readServerConfig, SERVER_SETTINGS, type ServerConfig, type ServerSetting } from "./config.js";
export { MAX_CHAT_MESSAGES, MAX_JSON_DEPTH, ROUTES, SYSTEM_ONE_MAX_LABELS } from "./constants.js";
export {
  DecisionServer,
  type DecisionServerOptions,
  type DecisionServerSettings,
  type DecisionServerState,
} from "./DecisionServer.js";
export { type DiscoverModelOptions, discoverModel } from "./discoverModel.js";
export { type EngineFieldMap, engineFieldMapFor, translateEnginePath } from "./engineFieldMap.js";
export {
  BadRequestError,
  BodyTimeoutError,
  BodyTooSlowError,
  ClientDisconnectedError,
  ConfigError,
  DeadlineExceededError,
  HttpError,
  InternalServerError,
  MethodNotAllowedError,
  ModelDiscoveryError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  StartupError,
  UnsupportedMediaTypeError,
} from "./errors.js";
export { formatFieldPath, type PathSegment } from "./fieldPath.js";
export { type EngineSettings, loadServedEngine } from "./loadServedEngine.js";
export {
  createJsonLogger,
  type JsonLoggerOptions,
  LOG_LEVELS,
  type LogFields,
  type Logger,
  type LogLevel,
  safeStringify,
  silentLogger,
} from "./logger.js";
export { type EngineErrorContext, engineProblems, mapEngineError } from "./mapEngineError.js";
export { type PreparedInvocation, prepareInvocation } from "./prepareInvocation.js";
export { PROBE_BATCH, probeEngine } from "./probeEngine.js";
export {
  declaredLength,
  discardBody,
  isJsonContentType,
  type JsonBody,
  parseBodyText,
  type ReadJsonBodyOptions,
  readJsonBody,
} from "./readJsonBody.js";
export { type ServeOptions, type SignalSource, serve } from "./serve.js";
export type {
  ChatInvocation,
  Invocation,
  InvocationKind,
  Problem,
  RequestLimits,
  SemIfInvocation,
  SystemOneInvocation,
  Validation,
} from "./types.js";
export { validateRequest } from "./validateRequest.js";
