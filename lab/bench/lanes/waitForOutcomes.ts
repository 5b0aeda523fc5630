import { POLL_MS } from "./constants.js";
import type { InteractiveProbes } from "./InteractiveProbes.js";
import type { LanesRig } from "./LanesRig.js";
import { waitForProgress } from "./waitForProgress.js";

/** Waits for the outcomes of every item sent, as long as they keep coming. */
export async function waitForOutcomes(rig: LanesRig, probes: InteractiveProbes): Promise<void> {
  const wait = await waitForProgress({
    done: () => probes.decided === probes.sent,
    progress: () => probes.refresh(),
    stallMs: rig.stallMs,
    pollMs: POLL_MS,
  });
  if (!wait.done)
    rig.log(
      `gave up after ${rig.stallMs} ms without a new outcome: ${probes.sent - probes.decided} of ${probes.sent} interactive items have none`,
    );
}
