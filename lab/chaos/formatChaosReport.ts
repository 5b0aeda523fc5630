import { LANES } from "../../contract/lanes/lanes.js";
import type { ChaosResult } from "./chaosRunTypes.js";

/**
 * The chaos run's summary as printed: the faults that fired (with what each did), the counts
 * (`lost`, `not drained`, `duplicates`, `decided`, `rejected`, `dead-lettered`, …, and every count
 * a kind of violation moves, so each broken promise shows in the numbers), then the same
 * per lane (with the endpoint calls each lane made and the faults they met) and across lanes (items
 * sent in both), the duration and the verdict, then the first violations when the invariant failed.
 */
export function formatChaosReport(result: ChaosResult): string {
  const { counts } = result.check;
  const lines = [
    `chaos: ${result.messages} messages, seed ${result.seed}, model ${result.model}`,
    `duration: ${result.durationS.toFixed(1)} s from the first send to drained (stack start ${result.startupS.toFixed(1)} s)`,
    ...(result.properties === undefined
      ? []
      : [
          `property checks: ${result.properties.recordParsing.cases} record bodies, ${result.properties.policyLoading.cases} policy files — no crash, no half outcome (${result.properties.durationS.toFixed(1)} s)`,
        ]),
    `faults fired (${result.fired.length}/${result.schedule.length}):`,
    ...result.fired.map(
      (fault) =>
        `  +${fault.atS.toFixed(1)} s (${fault.durationS.toFixed(1)} s) ${fault.kind}: ${Object.entries(
          fault.details,
        )
          .map(([name, value]) => `${name} ${value}`)
          .join(", ")}`,
    ),
    `items: ${counts.items} (${counts.valid} valid, ${counts.poison} poison) in ${counts.messages} messages` +
      (result.sendFailures > 0 ? ` (${result.sendFailures} sends refused)` : ""),
    `lost ${counts.lost} | not drained ${counts.notDrained} (queue held ${counts.queueRemaining}) | duplicates ${counts.duplicates} | conflicting ${counts.conflicting} | unexpected ${counts.unexpected}`,
    `decided ${counts.decided} | rejected ${counts.rejected} (poison rejected ${counts.poisonRejected}/${counts.poison}, not as its kind must be ${counts.poisonNotRejected}) | dead-lettered ${counts.deadLettered} | redundant DLQ copies ${counts.redundantDeadLetters}`,
    `dead-lettered for being busy ${counts.deadLetteredBusy} | in another lane's DLQ ${counts.deadLetteredElsewhere} | ` +
      `before maxReceiveCount ${counts.deadLetteredEarly} | without a reason ${counts.deadLetteredWithoutReason} | not sent by the run ${counts.unknownDeadLetters}`,
    `evidence: items never sent ${counts.notSent} | messages naming no item of the run ${counts.unknownItems} | items sharing a key ${counts.ambiguousKeys}`,
    ...LANES.map((lane) => {
      const each = counts.lanes[lane];
      const calls = result.endpointCallsByLane[lane];
      return (
        `lane ${lane}: ${each.messages} messages, ${each.items} items | decided ${each.decided} | ` +
        `poison rejected ${each.poisonRejected}/${each.poison} | dead-lettered ${each.deadLettered} ` +
        `(busy ${each.deadLetteredBusy}, other lane's ${each.deadLetteredElsewhere}) | lost ${each.lost} | ` +
        `not drained ${each.notDrained} (queue held ${each.queueRemaining}) | duplicates ${each.duplicates} | ` +
        `endpoint calls ${calls.requests} (503 injected ${calls.injectedErrors}, held back ${calls.slowed}, ` +
        `refused while down ${calls.upstreamFailures})`
      );
    }),
    `across lanes: ${counts.crossLane.items} items sent in both lanes, ${counts.crossLane.endedOnce} ended exactly once`,
    `outcomes by status: ${Object.entries(counts.statuses)
      .sort()
      .map(([status, count]) => `${status} ${count}`)
      .join(", ")}`,
    `records given back to SQS by the decide function: ${result.recordFailures}${
      result.recordFailures > 0
        ? ` (${Object.entries(result.recordFailuresByError)
            .map(([error, count]) => `${error} ${count}`)
            .join(", ")})`
        : ""
    }`,
  ];
  lines.push(
    `records re-queued for capacity (delayed copies, receive count kept for real failures): ${result.requeues}`,
  );
  const { endpoint_ms: endpoint, queue_to_outcome_ms: queued } = result.outcomeTimings;
  lines.push(
    `outcome timings p50/p95: endpoint call ${endpoint[0]}/${endpoint[1]} ms, send to outcome ${queued[0]}/${queued[1]} ms`,
  );
  if (!result.drained)
    lines.push(
      `the work queue did not drain: progress stalled with ${result.queueRemaining} message(s) still queued (not drained, not lost)`,
    );
  if (result.fired.length < result.schedule.length) lines.push("not every planned fault fired");
  for (const violation of result.check.violations) lines.push(`  ${violation.kind}: ${violation.detail}`);
  if (result.check.violationCount > result.check.violations.length) {
    lines.push(`  … ${result.check.violationCount - result.check.violations.length} more`);
  }
  lines.push(
    result.ok
      ? "invariant: PASS — every work item ended exactly once"
      : "invariant: FAIL — see the violations above",
  );
  return `${lines.join("\n")}\n`;
}
