/**
 * Wire formats of the decision adapter, shared by the server and its clients (the pipeline's
 * functions): the JSON text of a request as written (for byte-exact states), the zod schemas of
 * SemIf, System One and chat requests and responses, their inferred types and JSON Schemas.
 * Imports neither the engine nor `node:http`, so it bundles small.
 */
export {
  type ChatRequest,
  type ChatRequestMessage,
  ChatRequestSchema,
  type ChatResponse,
  ChatResponseSchema,
  chatRequestSchema,
} from "./chatSchemas.js";
export { DEFAULT_REQUEST_LIMITS, MAX_CHAT_MESSAGES, SYSTEM_ONE_MAX_LABELS } from "./constants.js";
export { describeType } from "./describeType.js";
export { JsonTextError, type JsonTextErrorKind } from "./errors.js";
export { isIntegerLikeKey } from "./isIntegerLikeKey.js";
export { JsonText } from "./JsonText.js";
export { jsonNodeAt } from "./jsonNodeAt.js";
export { jsonSchemaOf, WIRE_SCHEMA_NAMES, type WireSchemaName } from "./jsonSchemaOf.js";
export { jsonValueOf } from "./jsonValueOf.js";
export { DEFAULT_MAX_JSON_DEPTH, type ParseJsonTextOptions, parseJsonText } from "./parseJsonText.js";
export { problemsOf, type WireProblem } from "./problemsOf.js";
export { pythonFloatRepr } from "./pythonFloatRepr.js";
export { pythonJsonDumpsNode } from "./pythonJsonDumpsNode.js";
export { pythonJsonString } from "./pythonJsonString.js";
export {
  DebiasInfoSchema,
  QUESTION_LAYOUTS,
  type QuestionExtensions,
} from "./questionExtensions.js";
export { findReservedToken, RESERVED_TOKENS } from "./reservedText.js";
export {
  DecisionResultSchema,
  type SemIfDecision,
  type SemIfDecisionResult,
  type SemIfRequest,
  SemIfRequestSchema,
  type SemIfRequestSchemas,
  type SemIfResponse,
  SemIfResponseSchema,
  SHARED_STATE_MESSAGE,
  semIfRequestSchemas,
} from "./semIfSchemas.js";
export {
  type ChoiceAnswer,
  ChoiceAnswerSchema,
  type ChoiceQuestion,
  type NoulAnswer,
  NoulAnswerSchema,
  type NoulQuestion,
  type ScoreAnswer,
  ScoreAnswerSchema,
  type ScoreQuestion,
  type SystemOneAnswer,
  SystemOneAnswerSchema,
  type SystemOneQuestion,
  type SystemOneRequest,
  SystemOneRequestSchema,
  type SystemOneResponse,
  SystemOneResponseSchema,
  systemOneRequestSchema,
} from "./systemOneSchemas.js";
export type {
  JsonMember,
  JsonNode,
  JsonObject,
  JsonPathSegment,
  JsonSpan,
  JsonValue,
  RequestSchemaOptions,
} from "./types.js";
