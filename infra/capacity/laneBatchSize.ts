import type { Lane } from "../../contract/lanes/lanes.js";

/**
 * The batch size of a lane's SQS event source. Bulk: the `batchSize` knob. Interactive: at most the
 * lane's groups per invocation (`MAX_CONCURRENT_GROUPS`), so every record of an invocation is in
 * flight at once and no incident waits inside an invocation for another's call. With the knob's 10
 * and 1 group (the CPU default), ten incidents would be decided one after the other: at the CPU
 * instance's p95 of about 19 s per evaluation the tenth waits about 3 minutes, past the function's
 * 120 s timeout (the records not started by then are re-queued, later still) and far past the
 * interactive latency alarm (60 s). Fewer records per invocation cost only invocations: the lane's
 * calls in flight are `MaximumConcurrency × groups` either way.
 *
 * @example
 * ```ts
 * laneBatchSize("interactive", 10, 1); // 1
 * laneBatchSize("bulk", 10, 1); // 10
 * ```
 */
export function laneBatchSize(lane: Lane, configuredBatchSize: number, groupsPerInvocation: number): number {
  return lane === "interactive" ? Math.min(configuredBatchSize, groupsPerInvocation) : configuredBatchSize;
}
