/**
 * Decision policies as data: load and compile `policies/*.yaml`, check a work item's facts, map
 * EventBridge events to work items, and apply thresholds, fallbacks and rules to the model's
 * answers. Imports no engine and no HTTP: safe to bundle into the decide function.
 */

export { applyPolicy } from "./applyPolicy.js";
export { applyTemperature } from "./applyTemperature.js";
export { checkFacts } from "./checkFacts.js";
export {
  CelBudgetError,
  EventMappingError,
  formatPath,
  formatPolicyProblem,
  PolicyLoadError,
  type PolicyProblem,
} from "./errors.js";
export { findReservedTextIn, type ReservedTextFound } from "./findReservedText.js";
export { type CelBudget, DEFAULT_CEL_BUDGET, guardCelProgram } from "./guardCelProgram.js";
export { listPolicyFiles, loadPolicies } from "./loadPolicies.js";
export { loadPolicyFile } from "./loadPolicyFile.js";
export { loadPolicyFiles } from "./loadPolicyFiles.js";
export { type AuditStratum, type DeliveryTarget, Policy, type PolicyShadow } from "./Policy.js";
export { PolicySet } from "./PolicySet.js";
export { parsePolicy } from "./parsePolicy.js";
export { policyJsonSchema } from "./policyJsonSchema.js";
export { type PolicyDocument, PolicySchema, SECRET_KEY_BYTES, secretProblemOf } from "./policySchema.js";
export type {
  AnswerSource,
  AnswerValue,
  DecidedAnswer,
  DecisionStatus,
  EndpointQuestionFields,
  FactDeclaration,
  FactsCheck,
  JsonValue,
  ModelAnswer,
  PolicyDecision,
  PolicyEventMapping,
  PolicyQuestion,
  PolicyRule,
  RuleEffect,
  RuleFired,
  SystemOneQuestionForm,
  WorkItem,
} from "./types.js";
