/**
 * The chaos run: the local pipeline under injected faults, and the checker of its invariant
 * (every work item ends exactly once). `decisions chaos` runs {@link runChaos}.
 */

export { SeededRandom } from "../../core/common/SeededRandom.js";
export {
  buildChaosWorkload,
  type ChaosWorkload,
  type ChaosWorkloadOptions,
  POISON_KINDS,
  type PoisonKind,
  type WorkloadItem,
  type WorkloadMessage,
} from "./buildChaosWorkload.js";
export type { ChaosOptions, ChaosResult, FiredFault, PropertyChecks } from "./chaosRunTypes.js";
export {
  CHAOS_VIOLATION_COUNTS,
  CHAOS_VIOLATION_KINDS,
  type ChaosCheck,
  type ChaosCountField,
  type ChaosCounts,
  type ChaosEvidence,
  type ChaosViolation,
  type ChaosViolationKind,
  checkChaosInvariant,
  isBusyReason,
  type LaneCounts,
  type SentMessage,
} from "./checkChaosInvariant.js";
export { ChaosError, FaultInjectionError } from "./errors.js";
export {
  FaultProxy,
  type FaultProxyLaneStats,
  type FaultProxyOptions,
  type FaultProxyStats,
  type ProxyExchange,
  type ProxyFault,
} from "./FaultProxy.js";
export { formatChaosReport } from "./formatChaosReport.js";
export { loadWorkItemTemplates } from "./loadWorkItemTemplates.js";
export {
  describePlannedFault,
  type FaultKind,
  type FaultScheduleOptions,
  type PlannedFault,
  planFaultSchedule,
} from "./planFaultSchedule.js";
export { type DeadLetter, readDeadLetters, scanOutcomeRows } from "./readChaosEvidence.js";
export { chaosRunOk, runChaos } from "./runChaos.js";
