import type { InteractiveProbes } from "./InteractiveProbes.js";
import type { LanesRig } from "./LanesRig.js";
import { runBulkPhase } from "./runBulkPhase.js";
import { sleep, sleepUntil } from "./sleepUntil.js";
import type { BulkPhase } from "./types.js";
import { waitForOutcomes } from "./waitForOutcomes.js";

/**
 * Puts the bulk job again (new item ids); once its first lines have ended, sends interactive
 * items at `rate` until the job's phase ends; then waits for the items' outcomes.
 */
export async function bulkWithInteractive(
  rig: LanesRig,
  probes: InteractiveProbes,
  rate: number,
): Promise<BulkPhase> {
  let draining = false;
  let phaseEnded = false;
  const phase = runBulkPhase(rig, "bulk-during", (job) => {
    draining ||= (job?.counts.ended ?? 0) > 0;
  });
  const markEnded = () => {
    phaseEnded = true;
  };
  // Only marks the end: the phase's result or error is taken by `await phase` below.
  void phase.then(markEnded, markEnded);
  // The phase itself is bounded by progress: waiting on it bounds this loop.
  while (!draining && !phaseEnded) await sleep(50);
  const items = rig.workload.interactive("during", 100_000);
  const t0 = Date.now();
  try {
    for (let index = 0; !phaseEnded && index < items.length; index++) {
      await sleepUntil(t0 + (index * 1000) / rate);
      if (phaseEnded) break;
      await probes.send(items[index] as (typeof items)[number]);
    }
  } catch (error) {
    // The job's phase is still running: let it end before the stack stops under it.
    await Promise.allSettled([phase]);
    throw error;
  }
  const bulk = await phase;
  await waitForOutcomes(rig, probes);
  return bulk;
}
