import { join } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { SeededRandom } from "../../core/common/SeededRandom.js";
import { loadPolicies, type PolicySet } from "../../core/policy/index.js";
import { buildChaosWorkload, type ChaosWorkload } from "./buildChaosWorkload.js";
import type { ChaosOptions } from "./chaosRunTypes.js";
import { loadWorkItemTemplates } from "./loadWorkItemTemplates.js";
import { type PlannedFault, planFaultSchedule } from "./planFaultSchedule.js";

/** A chaos run's options with their defaults applied, its policies, its workload and its fault schedule. */
export interface ChaosPlan {
  seed: number;
  /** Messages sent in all. */
  total: number;
  functionTimeoutMs: number;
  deadlineMarginMs: number;
  visibilityTimeoutSeconds: number;
  backlog: number;
  policyDir: string;
  /** The run's seeded random source, forked once for the workload and once for the schedule already. */
  random: SeededRandom;
  policies: PolicySet;
  workload: ChaosWorkload;
  schedule: PlannedFault[];
}

/**
 * Applies the defaults of {@link ChaosOptions}, loads the policies and the sample work items, and
 * builds the seeded workload and fault schedule; logs what the workload holds.
 */
export async function planChaosRun(options: ChaosOptions, log: (line: string) => void): Promise<ChaosPlan> {
  const seed = options.seed ?? 1;
  const total = options.messages ?? 1000;
  // A batch of ten distinct items is ten requests on one adapter shared by two batches: on two
  // busy cores that takes several seconds, so the function gets 12 s (starting groups until 9 s).
  const functionTimeoutMs = options.functionTimeoutMs ?? 12_000;
  const deadlineMarginMs = options.deadlineMarginMs ?? 3_000;
  const visibilityTimeoutSeconds =
    options.visibilityTimeoutSeconds ?? Math.ceil((2 * functionTimeoutMs) / 1000);
  const backlog = options.backlog ?? 40;
  const root = packageRoot();
  const policyDir = options.policyDir ?? join(root, "policies");
  const random = new SeededRandom(seed);

  const policies = await loadPolicies(policyDir);
  const templates = await loadWorkItemTemplates(options.eventsDir ?? join(root, "events"), policies);
  const workload = buildChaosWorkload({
    messages: total,
    random: random.fork(),
    templates,
    idPrefix: `chaos-${seed}`,
    ...(options.bulkShare !== undefined ? { bulkShare: options.bulkShare } : {}),
  });
  const schedule = planFaultSchedule({
    random: random.fork(),
    windowScale: options.windowScale,
    deadlineMs: functionTimeoutMs - deadlineMarginMs,
  });
  log(
    `chaos: ${total} messages (${workload.counts.valid} valid items, ${workload.counts.duplicates} duplicate sends, ` +
      `${workload.counts.dualPairs} ids under two policies, ${workload.counts.poison} poison; ` +
      `${workload.counts.byLane.interactive} interactive, ${workload.counts.byLane.bulk} bulk, ` +
      `${workload.counts.crossLane} items sent in both lanes), seed ${seed}`,
  );
  return {
    seed,
    total,
    functionTimeoutMs,
    deadlineMarginMs,
    visibilityTimeoutSeconds,
    backlog,
    policyDir,
    random,
    policies,
    workload,
    schedule,
  };
}
