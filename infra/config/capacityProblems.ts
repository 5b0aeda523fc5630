import { DecideCapacityError, deriveDecideCapacity } from "../capacity/deriveDecideCapacity.js";
import type { InfraConfigProblem } from "./errors.js";
import type { InfraSettings } from "./InfraSettings.js";

/**
 * Both lanes must fit what the endpoint admits at minimum capacity (`deriveDecideCapacity`): the
 * problem names the knob to raise first — the reserve for the interactive lane, the smallest
 * pool's requests per instance for the bulk lane (the message names the others).
 */
export function capacityProblems(settings: InfraSettings): InfraConfigProblem[] {
  // Each lane's component sizes its lane alone, down to the event source's floor
  // (`deriveComponentDecideCapacity`): nothing to refuse.
  if (settings.layout === "lanes-from-zero") return [];
  const pools =
    settings.accelerator === "cpu"
      ? [{ knob: "cpuRequestsPerInstance", requests: settings.cpuRequestsPerInstance }]
      : [
          { knob: "gpuRequestsPerInstance", requests: settings.gpuRequestsPerInstance },
          ...(settings.cpuFallbackPool
            ? [{ knob: "cpuRequestsPerInstance", requests: settings.cpuRequestsPerInstance }]
            : []),
        ];
  try {
    deriveDecideCapacity({
      minInstances: settings.minInstances,
      requestsPerInstanceByPool: pools.map((pool) => pool.requests),
      interactiveReservePerInstance: settings.interactiveReservePerInstance,
      configuredGroupsPerInvocation: settings.maxConcurrentGroups,
    });
    return [];
  } catch (error) {
    if (!(error instanceof DecideCapacityError)) throw error;
    const smallest = pools.reduce((least, pool) => (pool.requests < least.requests ? pool : least));
    const knob = error.lane === "interactive" ? "interactiveReservePerInstance" : smallest.knob;
    return [{ knob, message: error.message }];
  }
}
