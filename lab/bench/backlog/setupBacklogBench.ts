// The CDK app's own rule, by its file (pure arithmetic): the bench sizes the pipeline as a deployment is sized.
import { deriveLaneCapacity } from "../../../infra/capacity/deriveDecideCapacity.js";
import { ADAPTER_ADMISSION, CONFIGURED_GROUPS, DEFAULT_ITEMS } from "./constants.js";
import type { BacklogBenchOptions } from "./types.js";

/** What the bench resolved from its options: the run's size, its sizing, timeouts and log. */
export interface BacklogBenchSetup {
  quick: boolean;
  count: number;
  roundCount: number;
  instances: number;
  maxConcurrentGroups: number;
  /** How the instances and groups were chosen. */
  sizing: string;
  functionTimeoutMs: number;
  visibilityTimeoutSeconds: number;
  stallMs: number;
  log: (line: string) => void;
}

/** The options with their defaults applied (the sizing as the CDK app derives it). @throws RangeError for a bad `rounds`. */
export function setupBacklogBench(options: BacklogBenchOptions): BacklogBenchSetup {
  const quick = options.quick ?? false;
  const count = options.items ?? (quick ? DEFAULT_ITEMS.quick : DEFAULT_ITEMS.full);
  const roundCount = options.rounds ?? 3;
  if (!Number.isInteger(roundCount) || roundCount < 1 || roundCount > count) {
    throw new RangeError(`rounds must be an integer from 1 to the items (${count}), got ${roundCount}`);
  }
  // One lane holding every place of one instance (the backlog bench drains one queue).
  const derived = deriveLaneCapacity(
    ADAPTER_ADMISSION.running + ADAPTER_ADMISSION.waiting,
    CONFIGURED_GROUPS,
  );
  const instances = options.instances ?? derived.maxConcurrency;
  const maxConcurrentGroups = options.maxConcurrentGroups ?? derived.groupsPerInvocation;
  const sizing =
    options.instances === undefined && options.maxConcurrentGroups === undefined
      ? `the CDK app's derivation for ${derived.calls} admitted (deriveLaneCapacity)`
      : "given (--instances / --groups)";
  const functionTimeoutMs = options.functionTimeoutMs ?? 120_000;
  const visibilityTimeoutSeconds =
    options.visibilityTimeoutSeconds ?? Math.ceil((2 * functionTimeoutMs) / 1000);
  // A record given back waits out the visibility timeout before anything can end it.
  const stallMs = options.stallMs ?? 120_000 + 2_000 * visibilityTimeoutSeconds;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return {
    quick,
    count,
    roundCount,
    instances,
    maxConcurrentGroups,
    sizing,
    functionTimeoutMs,
    visibilityTimeoutSeconds,
    stallMs,
    log,
  };
}
