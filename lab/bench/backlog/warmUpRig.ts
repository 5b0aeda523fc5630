import { measureCpu } from "../pipeline/measureCpu.js";
import { adapterAlone } from "./adapterAlone.js";
import type { BacklogRig } from "./BacklogRig.js";
import type { BacklogItem } from "./buildBacklogItems.js";
import { drainThrough } from "./drainThrough.js";
import type { MeasuredPhase } from "./types.js";

/** Warms every part: the warm items through the pipeline, then the adapter alone on them. */
export async function warmUpRig(rig: BacklogRig, warmItems: readonly BacklogItem[]): Promise<MeasuredPhase> {
  const { stack, handlers, parts, policies, setup } = rig;
  const { stallMs, functionTimeoutMs, log } = setup;
  log(`warming up: ${warmItems.length} items through the pipeline, then the adapter alone`);
  return measureCpu(parts, async () => {
    const run = await drainThrough(stack, handlers, warmItems, { stallMs, functionTimeoutMs }, log);
    if (!run.drained) throw new Error("the warm-up backlog did not drain; see the progress lines");
    await adapterAlone(stack.adapterUrl, policies, warmItems);
  });
}
