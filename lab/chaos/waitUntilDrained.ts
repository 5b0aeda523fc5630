import { setTimeout as sleep } from "node:timers/promises";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { queueDepth } from "../../local/eventSource/queueDepth.js";
import type { RunState } from "./RunState.js";

/**
 * Waits until the work queues hold nothing (visible, in flight or delayed) and the host runs no
 * batch, twice in a row: every message deleted after its outcome, or moved to its DLQ. The wait
 * is bounded by progress, not by a budget: it gives up (false) once `stallMs` pass with no message
 * ended and the queues no shallower than their shallowest so far (a move to a DLQ is progress too).
 */
export async function waitUntilDrained(
  sqs: SQSClient,
  queueUrls: readonly string[],
  run: RunState,
  stallMs: number,
  log: (line: string) => void,
): Promise<boolean> {
  let quiet = 0;
  let shallowest = Number.POSITIVE_INFINITY;
  let depthProgressAt = Date.now();
  for (;;) {
    let depth = 0;
    for (const queueUrl of queueUrls) depth += await queueDepth(sqs, queueUrl);
    if (depth < shallowest) {
      shallowest = depth;
      depthProgressAt = Date.now();
    }
    quiet = depth === 0 && run.inFlight.size === 0 ? quiet + 1 : 0;
    if (quiet >= 2) return true;
    const stalledMs = Math.min(run.msSinceProgress(), Date.now() - depthProgressAt);
    if (stalledMs > stallMs) {
      log(
        `  drain stalled: nothing ended for ${(stalledMs / 1000).toFixed(0)} s with ${depth} message(s) queued`,
      );
      return false;
    }
    await sleep(500);
  }
}
