/**
 * Reliability checks: adversarial inputs for property tests and the chaos command, and a bounded
 * load runner (autocannon on loopback) with process sampling.
 */
export {
  CHAT_CONTROL_TEXTS,
  HOSTILE_KEYS,
  hostileJson,
  hostileString,
  hugeString,
  RAW_FRAGMENTS,
} from "./adversarialValues.js";
export {
  type CheckPolicyLoadingOptions,
  checkPolicyLoading,
  type PolicyLoadingReport,
  policyLoadingProblem,
} from "./checkPolicyLoading.js";
export {
  type CheckRecordParsingOptions,
  checkRecordParsing,
  type RecordParsingReport,
  recordParsingProblem,
} from "./checkRecordParsing.js";
export { answersRequest, loadRequestBody, questionIdsOf } from "./loadRequests.js";
export { CEL_INJECTIONS, type PolicyCase, policyCaseArbitrary, SEED_POLICY } from "./policyTexts.js";
export { countFiles, type ProcessSample, readCpuSeconds, readProcessStats } from "./processStats.js";
export { propertyRuns } from "./propertyRuns.js";
export { type RecordBody, recordBodyArbitrary, SEED_BODIES } from "./recordBodies.js";
export { type LoadReport, type ProcessReport, type RunLoadOptions, runLoad } from "./runLoad.js";
export { type LoadTarget, type StartLoadTargetOptions, startLoadTarget } from "./startLoadTarget.js";
