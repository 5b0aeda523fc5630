import type { InteractiveProbes } from "./InteractiveProbes.js";
import type { LanesRig } from "./LanesRig.js";
import { sleepUntil } from "./sleepUntil.js";
import { waitForOutcomes } from "./waitForOutcomes.js";

/** Sends `count` interactive items at `rate` with nothing else in the pipeline; waits for their outcomes. */
export async function interactiveAlone(
  rig: LanesRig,
  probes: InteractiveProbes,
  count: number,
  rate: number,
): Promise<void> {
  const t0 = Date.now();
  for (const [index, item] of rig.workload.interactive("alone", count).entries()) {
    await sleepUntil(t0 + (index * 1000) / rate);
    await probes.send(item);
  }
  await waitForOutcomes(rig, probes);
}
