import { loadavg } from "node:os";
import { join } from "node:path";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { readDemoInputs } from "../../../local/index.js";
import { startBusyProcesses } from "../startBusyProcesses.js";
import { buildLanesReport } from "./buildLanesReport.js";
import { buildLanesWorkload } from "./buildLanesWorkload.js";
import { bulkWithInteractive } from "./bulkWithInteractive.js";
import { checkLanes } from "./checkLanes.js";
import { DEFAULT_STALL_MS } from "./constants.js";
import { InteractiveProbes } from "./InteractiveProbes.js";
import { interactiveAlone } from "./interactiveAlone.js";
import { runBulkPhase } from "./runBulkPhase.js";
import { startLanesRig } from "./startLanesRig.js";
import type { BulkPhase, LanesBenchOptions, LanesBenchReport } from "./types.js";
import { warmUpInteractive } from "./warmUpInteractive.js";
import { writeLanesReport } from "./writeLanesReport.js";

export type { BulkPhase, LaneCheck, LanesBenchOptions, LanesBenchReport } from "./types.js";

/**
 * `decisions bench --lanes`: on the local stack (both lanes, the generated tiny model), in one
 * run: (a) interactive items alone, one every 1/rate s; (b) a bulk job of `lines` lines alone
 * (put into the bucket: ingest makes it a job in the bulk lane); (c) the same job again (new item
 * ids) while interactive items arrive at the same rate until it completes. Every wait lasts as
 * long as outcomes keep arriving (given up after `stallMs` without one). Reports interactive
 * send→outcome during ÷ alone, bulk lines/s (put → completed) during ÷ alone, and per lane, from
 * the real queues, DLQs and outcomes table: dead-lettered (DLQ messages), not ended (no outcome
 * yet, still queued when the run stopped waiting), lost (no outcome, in no queue or DLQ), and the
 * jobs' duplicates, with the goals.
 *
 * @throws Error when ingest fails.
 */
export async function runLanesBench(
  options: LanesBenchOptions,
): Promise<{ report: LanesBenchReport; jsonPath?: string }> {
  const startedAt = new Date();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const quick = options.quick ?? false;
  const lines = options.lines ?? (quick ? 200 : 1000);
  const aloneCount = options.interactiveAlone ?? (quick ? 8 : 30);
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  const busy = startBusyProcesses(options.busy ?? 0);
  try {
    const loadStart = loadavg();
    const modelPath = options.modelPath ?? (await ensureGeneratedModel("tiny-qwen3"));
    const workload = buildLanesWorkload(await readDemoInputs(join(packageRoot(), "events")), lines);
    log(
      `bench --lanes: ${aloneCount} interactive items alone, a ${lines}-line bulk job alone, the job again ` +
        `with interactive items; ${busy.length} busy processes beside; load average ${fmt(loadStart)}`,
    );
    const rig = await startLanesRig(workload, modelPath, options, stallMs, log);
    try {
      const probes = (): InteractiveProbes =>
        new InteractiveProbes({
          sqs: rig.stack.clients.sqs,
          documents: rig.documents,
          queueUrl: rig.stack.lanes.interactive.queueUrl,
          table: rig.stack.table,
        });
      const warm = probes();
      const warmEvaluationMs = await warmUpInteractive(rig, warm);
      const rate =
        options.rate ?? Math.min(1, Math.round((1000 / (10 * Math.max(1, warmEvaluationMs))) * 1000) / 1000);
      log(
        `warm-up done: one evaluation ${warmEvaluationMs} ms; interactive items at ${rate}/s` +
          (options.rate === undefined ? " (one per 10 evaluations, at most 1/s)" : " (--rate)"),
      );

      const alone = probes();
      await interactiveAlone(rig, alone, aloneCount, rate);
      const evaluationMs = alone.medianEndpointMs();
      log(`interactive alone: ${describe(alone)}; one evaluation ${evaluationMs} ms`);

      const bulkAlone = await runBulkPhase(rig, "bulk-alone");
      log(`bulk alone: ${describeBulk(bulkAlone)}`);

      const during = probes();
      const bulkDuring = await bulkWithInteractive(rig, during, rate);
      log(`interactive during the drain: ${describe(during)}; bulk during: ${describeBulk(bulkDuring)}`);

      const checks = await checkLanes(rig, [warm, alone, during], [bulkAlone, bulkDuring]);
      const completedAt = Date.parse(
        rig.completed.find((job) => job.job_id === bulkDuring.job_id)?.completed_at ?? "",
      );
      const report = buildLanesReport({
        options,
        quick,
        startedAt,
        loadStart,
        busyProcesses: busy.length,
        modelPath,
        settings: {
          lines,
          rate_per_s: rate,
          rate_from: options.rate === undefined ? "warm-up" : "--rate",
          warm_up_evaluation_ms: warmEvaluationMs,
          interactive_alone: aloneCount,
          stall_ms: stallMs,
        },
        evaluationMs,
        alone,
        during,
        bulkAlone,
        bulkDuring,
        completedAt,
        checks,
      });
      return await writeLanesReport(report, options.outDir, startedAt);
    } finally {
      await rig.stack.stop();
    }
  } finally {
    for (const child of busy) child.kill("SIGKILL");
  }
}

function describe(probes: InteractiveProbes): string {
  const measured = probes.sendToOutcomeMs().sort((a, b) => a - b);
  return `${measured.length}/${probes.sent} decided, send→outcome ${measured[0] ?? "?"}–${measured.at(-1) ?? "?"} ms`;
}

function describeBulk(phase: BulkPhase): string {
  return `${phase.lines_per_s} lines/s${phase.completed ? "" : ` (not completed: ${phase.counts.ended}/${phase.lines} lines ended)`}`;
}

function fmt(values: number[]): string {
  return values.map((value) => value.toFixed(2)).join(", ");
}
