/**
 * The pipeline core: what happens between a work item and its outcome, whatever carried the item
 * in. `decideItems(inputs, ports, options)` reads each input (`parseWorkItem`), groups the items
 * that share a policy and a rendered state, asks the decision endpoint once per group, applies the
 * policy, writes one outcome per item to the outcome sink, and returns how each input ended
 * (recorded, duplicate, or failed: give it back).
 *
 * Named `pipeline` because it is the pipeline's one path from input to outcome; the folders beside
 * it are its adapters and parts: `decide` (the Lambda: SQS records in, `batchItemFailures` out),
 * `endpoint` and `outcomes` (the SageMaker and DynamoDB implementations of its ports), `policy`.
 * `decisions classify` (operations/classify) runs the same core with an in-process endpoint and a
 * results file. The core reaches nothing but its ports (`ports.ts`): no SQS, no AWS SDK client,
 * no Powertools, so it is unit-tested with in-memory ports.
 */

// The outcome sink's options and result are the outcomes table's own (one definition).
export type { RecordOptions, RecordResult } from "../outcomes/index.js";
export {
  type AuditMark,
  type AuditPolicy,
  auditConfidence,
  auditDraw,
  auditOf,
  markAudit,
} from "./auditOf.js";
export { buildSystemOneBody } from "./buildSystemOneBody.js";
export { FINISH_MARGIN_MS, OUTCOME_WRITE_CONCURRENCY } from "./constants.js";
export {
  type AdmitRefusal,
  type DecideItemsOptions,
  type DecideItemsResult,
  decideItems,
} from "./decideItems.js";
export { groupItems } from "./groupItems.js";
export { originId } from "./originId.js";
export { parseWorkItem } from "./parseWorkItem.js";
export type {
  DecisionEndpoint,
  EndpointCallOptions,
  OutcomeSink,
  PipelinePorts,
  PipelineTelemetry,
  ShadowedGroup,
  ShadowStep,
  StateArchiveWriter,
} from "./ports.js";
export { readSystemOneResponse } from "./readSystemOneResponse.js";
export { agreementWithLive, type LiveAgreement } from "./shadow/agreementWithLive.js";
export {
  CandidateEndpointAbsentError,
  CandidateTimeoutError,
  ShadowAbandonedError,
} from "./shadow/errors.js";
export {
  SHADOW_DEFAULTS,
  ShadowRunner,
  type ShadowRunnerOptions,
  type ShadowSink,
  type ShadowTelemetry,
} from "./shadow/ShadowRunner.js";
export { shadowDraw, shadowOf } from "./shadow/shadowOf.js";
export type {
  DecisionGroup,
  ItemOrigin,
  ItemResult,
  ParsedItem,
  ReadWorkItem,
  RejectedItem,
  WorkItemInput,
} from "./types.js";
