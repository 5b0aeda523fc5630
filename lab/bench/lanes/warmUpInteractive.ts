import type { InteractiveProbes } from "./InteractiveProbes.js";
import type { LanesRig } from "./LanesRig.js";
import { waitForOutcomes } from "./waitForOutcomes.js";

/**
 * Three interactive items, one after the other: the model's first evaluations are in no phase.
 * Returns the median `endpoint_ms` of the last two (the default rate is derived from it).
 */
export async function warmUpInteractive(rig: LanesRig, warm: InteractiveProbes): Promise<number> {
  for (const item of rig.workload.interactive("warm", 3)) {
    await warm.send(item);
    await waitForOutcomes(rig, warm);
  }
  const [, ...timed] = warm.timings;
  return median(timed.flatMap((timing) => timing.endpointMs ?? []));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor((sorted.length - 1) / 2)] ?? 0);
}
