import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LANES } from "../../contract/lanes/lanes.js";
import type { LocalStack } from "../../local/stack/startLocalStack.js";
import { chaosHostConfig } from "./chaosHostConfig.js";
import type { ChaosOptions, ChaosResult } from "./chaosRunTypes.js";
import type { ChaosCheck } from "./checkChaosInvariant.js";
import { checkChaosRun } from "./checkChaosRun.js";
import { FaultProxy } from "./FaultProxy.js";
import type { ChaosParts } from "./fireFault.js";
import { fireSchedule } from "./fireSchedule.js";
import { outcomeTimings } from "./outcomeTimings.js";
import { planChaosRun } from "./planChaosRun.js";
import { describePlannedFault } from "./planFaultSchedule.js";
import { RunState } from "./RunState.js";
import { runPropertyChecks } from "./runPropertyChecks.js";
import { sendWorkload } from "./sendWorkload.js";
import { startChaosStack } from "./startChaosStack.js";
import { startHost } from "./startHost.js";
import { waitUntilDrained } from "./waitUntilDrained.js";

/**
 * `decisions chaos`: the local pipeline under faults, in both lanes. Starts the local stack
 * (DynamoDB Local on a data folder, fauxqs with each lane's queue and DLQ, the adapter, the gateway)
 * with a fault proxy between the gateway and the adapter and each lane's decide function under its
 * poller in one process of its own; sends a seeded workload to both lanes, interleaved, at a
 * steady backlog while the seeded fault schedule fires on both (503s, slow answers near the
 * deadline, the adapter killed and restarted, DynamoDB Local stopped and restarted, the function
 * host killed mid-batch and restarted); waits until both queues drain; then checks, from a Scan
 * of the table and the lanes' DLQs alone, that every work item ended exactly once whatever lane it
 * travelled, per lane and across lanes ({@link checkChaosInvariant}). Stops everything.
 *
 * @throws LocalPartError when a part cannot start; FaultInjectionError when a part does not come back.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const plan = await planChaosRun(options, log);
  const { seed, total, workload, schedule } = plan;
  const properties = runPropertyChecks(options.propertyCases ?? 10_000, plan.policies, workload, seed, log);
  log("fault schedule:");
  for (const fault of schedule) log(`  ${describePlannedFault(fault)}`);

  const begin = performance.now();
  const dataDir = await mkdtemp(join(tmpdir(), "decisions-chaos-ddb-"));
  const cleanups: (() => Promise<void>)[] = [];
  let stack: LocalStack | undefined;
  try {
    stack = await startChaosStack(options, plan, dataDir, log);
    const stackLanes = stack.lanes;
    await Promise.all(LANES.map((lane) => stackLanes[lane].poller.stop()));
    const running = stack;
    const proxy = await FaultProxy.start({ target: running.adapterUrl, random: plan.random.fork() });
    cleanups.push(() => proxy.stop());
    running.gateway.setEndpoint(running.endpointName, proxy.url);

    const run = new RunState(workload);
    const hostConfig = chaosHostConfig(running, plan);
    const parts: ChaosParts = {
      stack: running,
      proxy,
      adapter: running.adapter,
      dynamodb: running.dynamodb,
      host: await startHost(hostConfig, run),
      hostConfig,
      dataDir,
      options,
    };
    cleanups.push(async () => {
      await parts.host.stop();
      // Restarted parts are this run's to stop; the stack stops the ones it started.
      if (parts.adapter !== running.adapter) await parts.adapter.stop();
      if (parts.dynamodb !== running.dynamodb) await parts.dynamodb.stop();
    });
    const startupS = (performance.now() - begin) / 1000;
    log(`stack ready in ${startupS.toFixed(1)} s; sending`);

    const flowStarted = performance.now();
    const seconds = () => (performance.now() - flowStarted) / 1000;
    const progress = setInterval(() => {
      log(
        `  ${seconds().toFixed(0)} s: ${run.sent.length}/${total} sent, ${run.ended.size} ended ` +
          `(interactive ${run.endedIn.interactive}, bulk ${run.endedIn.bulk}), ` +
          `${run.failures.size} records given back so far, ${run.requeues} re-queued for capacity, ${run.inFlight.size} in flight`,
      );
    }, 5_000);
    try {
      const queueUrls = {
        interactive: running.lanes.interactive.queueUrl,
        bulk: running.lanes.bulk.queueUrl,
      };
      const sending = sendWorkload(running.clients.sqs, queueUrls, workload, run, plan.backlog);
      const fired = await fireSchedule(plan, parts, run, seconds, log);
      run.faultsDone = true;
      await sending;
      const drainStallMs = options.drainStallMs ?? 120_000 + 2_000 * plan.visibilityTimeoutSeconds;
      const drained = await waitUntilDrained(
        running.clients.sqs,
        Object.values(queueUrls),
        run,
        drainStallMs,
        log,
      );
      const durationS = seconds();
      await parts.host.stop();
      const { check, rows, queueRemaining } = await checkChaosRun(
        running,
        workload,
        run,
        options.maxReceiveCount ?? 5,
      );
      const { byLane } = proxy.stats();
      return {
        ok: chaosRunOk({
          check,
          drained,
          faultsFired: fired.length,
          faultsPlanned: schedule.length,
          sendFailures: run.sendFailures,
        }),
        seed,
        messages: total,
        check,
        schedule,
        fired,
        drained,
        queueRemaining: queueRemaining.interactive + queueRemaining.bulk,
        endpointCallsByLane: { interactive: byLane.interactive, bulk: byLane.bulk },
        sendFailures: run.sendFailures,
        durationS,
        startupS,
        ...(properties !== undefined ? { properties } : {}),
        model: running.model.generated ? `generated ${running.model.kind}` : running.model.path,
        recordFailures: run.recordFailures,
        requeues: run.requeues,
        recordFailuresByError: Object.fromEntries(run.failureKinds),
        outcomeTimings: outcomeTimings(rows),
      };
    } finally {
      clearInterval(progress);
    }
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) =>
        log(`while stopping: ${error instanceof Error ? error.message : error}`),
      );
    }
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * A chaos run's verdict: the invariant holds, the queues drained, every planned fault fired, and
 * every message was sent — a send the queue refused is an item that never entered the pipeline,
 * of which the run proves nothing.
 */
export function chaosRunOk(run: {
  check: Pick<ChaosCheck, "ok">;
  drained: boolean;
  faultsFired: number;
  faultsPlanned: number;
  sendFailures: number;
}): boolean {
  return run.check.ok && run.drained && run.faultsFired === run.faultsPlanned && run.sendFailures === 0;
}
