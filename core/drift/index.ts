/**
 * Drift: how far the answers of a policy's last window moved from its baseline, per question (the
 * answer mix and the confidence histogram as Jensen–Shannon divergences), which options moved, and
 * which options are rarely chosen or keep being replaced by reviewers. The core is pure
 * ({@link measureDrift}); {@link measurePolicyDrift} reads the outcomes table for it. Used by the
 * drift monitor, `decisions drift` and the review console.
 */

export type {
  DriftReport,
  OptionFlag,
  OptionShare,
  PolicyDriftReport,
  QuestionDrift,
} from "../../contract/outcome/driftReport.js";
export { DEFAULT_DRIFT_OPTIONS, type DriftOptions, resolveDriftOptions } from "./DriftOptions.js";
export { declaredQuestionsOf } from "./declaredQuestionsOf.js";
export { type DriftWindows, rollingWindows, type TimeRange, windowsSince } from "./driftWindows.js";
export { DriftOptionsError, DriftRangeError } from "./errors.js";
export { flagOptions } from "./flagOptions.js";
export { jensenShannon, jensenShannonNoise } from "./jensenShannon.js";
export { type DeclaredQuestion, measureDrift } from "./measureDrift.js";
export { measurePolicyDrift } from "./measurePolicyDrift.js";
export { type DriftObservation, observeOutcome } from "./observeOutcome.js";
export { type DriftRead, readDriftObservations } from "./readDriftObservations.js";
