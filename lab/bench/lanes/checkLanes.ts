import type { Lane } from "../../../contract/index.js";
import { LANES } from "../../../contract/lanes/lanes.js";
import { queueDepth } from "../../../local/eventSource/queueDepth.js";
import type { InteractiveProbes } from "./InteractiveProbes.js";
import type { LanesRig } from "./LanesRig.js";
import { tallyLaneEnds } from "./tallyLaneEnds.js";
import type { BulkPhase, LaneCheck } from "./types.js";

/**
 * Where each lane's items ended, from the real queues, DLQs and outcomes table: interactive items
 * and the jobs' item ids without an outcome row, told apart by {@link tallyLaneEnds}.
 */
export async function checkLanes(
  rig: LanesRig,
  interactive: readonly InteractiveProbes[],
  bulk: readonly BulkPhase[],
): Promise<Record<Lane, LaneCheck>> {
  for (const probes of interactive) await probes.refresh();
  const items: Record<Lane, { items: number; outcomes: number }> = {
    interactive: {
      items: interactive.reduce((sum, probes) => sum + probes.sent, 0),
      outcomes: interactive.reduce((sum, probes) => sum + probes.decided, 0),
    },
    bulk: {
      items: bulk.reduce((sum, phase) => sum + phase.item_ids, 0),
      outcomes: bulk.reduce((sum, phase) => sum + phase.outcome_rows, 0),
    },
  };
  const entries = await Promise.all(
    LANES.map(async (lane): Promise<[Lane, LaneCheck]> => {
      const queued = await queueDepth(rig.stack.clients.sqs, rig.stack.lanes[lane].queueUrl);
      const deadLettered = await queueDepth(rig.stack.clients.sqs, rig.stack.lanes[lane].dlqUrl);
      const { items: sent, outcomes } = items[lane];
      const ends = tallyLaneEnds({ withoutOutcome: sent - outcomes, queued, deadLettered });
      return [lane, { items: sent, outcomes, queued, ...ends }];
    }),
  );
  return Object.fromEntries(entries) as Record<Lane, LaneCheck>;
}
