import { loadavg } from "node:os";
import { startBusyProcesses } from "../startBusyProcesses.js";
import { buildBacklogReport } from "./buildBacklogReport.js";
import { checkEveryItemEnded } from "./checkEveryItemEnded.js";
import { requestsOf } from "./distinctRequests.js";
import { prepareBacklogWorkload } from "./prepareBacklogWorkload.js";
import { emptyRoundTotals, runBacklogRound } from "./runBacklogRound.js";
import { setupBacklogBench } from "./setupBacklogBench.js";
import { startBacklogRig } from "./startBacklogRig.js";
import type { BacklogBenchOptions, BacklogBenchReport } from "./types.js";
import { warmUpRig } from "./warmUpRig.js";
import { writeBacklogReport } from "./writeBacklogReport.js";

export { DEFAULT_ITEMS } from "./constants.js";
export type { BacklogBenchOptions, BacklogBenchReport } from "./types.js";

/**
 * `decisions bench --backlog`: a backlog through the whole local pipeline against the adapter
 * alone. Starts the local stack (DynamoDB Local, fauxqs, the adapter with its cross-request cache
 * off and an explicit admission of 1 running + 8 waiting, the gateway) with a counting proxy
 * between the gateway and the adapter, and `instances` decide function instances each under its
 * own event source slot, sized by default as the CDK app sizes a deployment for what the endpoint
 * admits at minimum capacity (`deriveLaneCapacity`). Warms every part (a small backlog through
 * the pipeline, then the adapter alone), then runs `rounds` rounds: each puts its share of the
 * items on the queue at once and drains it, with the adapter alone measured on the same items
 * right before or after (in turn), so each round's ratio compares runs side by side. Then checks
 * from the table, the DLQ and the queue (the chaos checker) that every item ended exactly once.
 * Writes `backlog-<timestamp>.json`.
 *
 * @throws LocalPartError when a part cannot start.
 */
export async function runBacklogBench(
  options: BacklogBenchOptions,
): Promise<{ report: BacklogBenchReport; jsonPath: string }> {
  const startedAt = new Date();
  const setup = setupBacklogBench(options);
  const busy = startBusyProcesses(options.busy ?? 0);
  try {
    const loadStart = loadavg();
    const workload = await prepareBacklogWorkload(options, setup);
    setup.log(
      `bench --backlog: ${workload.items.length} items in ${setup.roundCount} rounds, ${requestsOf(workload.roundItems)} distinct requests, ` +
        `${setup.instances} instances × ${setup.maxConcurrentGroups} groups (${setup.sizing}), model ${workload.modelPath}, ` +
        `${options.busy ?? 0} busy processes beside, load average ${fmt(loadStart)}`,
    );
    const rig = await startBacklogRig(workload, options, setup);
    try {
      const warm = await warmUpRig(rig, workload.warmItems);
      rig.calls.length = 0;
      const totals = emptyRoundTotals();
      for (const index of workload.roundItems.keys()) await runBacklogRound(rig, workload, index, totals);
      const check = await checkEveryItemEnded(rig.stack, workload.items, totals.sent);
      const report = buildBacklogReport({
        options,
        setup,
        startedAt,
        loadStart,
        busy,
        workload,
        totals,
        check,
        warm,
      });
      return await writeBacklogReport(report, options.outDir, startedAt);
    } finally {
      await rig.stop();
    }
  } finally {
    for (const child of busy) child.kill("SIGKILL");
  }
}

function fmt(values: readonly number[]): string {
  return values.map((value) => value.toFixed(2)).join(" ");
}
