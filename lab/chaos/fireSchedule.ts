import type { FiredFault } from "./chaosRunTypes.js";
import { type ChaosParts, fireFault } from "./fireFault.js";
import type { ChaosPlan } from "./planChaosRun.js";
import { describePlannedFault } from "./planFaultSchedule.js";
import type { RunState } from "./RunState.js";
import { waitFor } from "./waitFor.js";

/**
 * Fires each planned fault once its share of the messages has ended (or the sending is done, or
 * the flow stalled for a minute), in the schedule's order; returns each as it fired.
 *
 * @param seconds seconds since the first message was sent.
 */
export async function fireSchedule(
  plan: Pick<ChaosPlan, "schedule" | "total">,
  parts: ChaosParts,
  run: RunState,
  seconds: () => number,
  log: (line: string) => void,
): Promise<FiredFault[]> {
  const fired: FiredFault[] = [];
  for (const fault of plan.schedule) {
    // A stalled flow (messages on their way to the DLQ never end) must not hold the schedule.
    await waitFor(() => run.ended.size >= fault.at * plan.total || run.sendDone || run.stalledFor(60_000));
    const atS = seconds();
    log(`  ${atS.toFixed(1)} s: fault ${describePlannedFault(fault)}`);
    const details = await fireFault(fault, parts, run);
    fired.push({
      kind: fault.kind,
      planned: describePlannedFault(fault),
      atS,
      durationS: seconds() - atS,
      details,
    });
    log(`  ${seconds().toFixed(1)} s: fault ${fault.kind} done: ${JSON.stringify(details)}`);
  }
  return fired;
}
