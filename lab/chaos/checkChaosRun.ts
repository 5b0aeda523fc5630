import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { queueDepth } from "../../local/eventSource/queueDepth.js";
import type { LocalStack } from "../../local/stack/startLocalStack.js";
import type { ChaosWorkload } from "./buildChaosWorkload.js";
import { type ChaosCheck, checkChaosInvariant } from "./checkChaosInvariant.js";
import type { RunState } from "./RunState.js";
import { readDeadLetters, scanOutcomeRows } from "./readChaosEvidence.js";

/** The evidence a chaos run is judged on, and the judgement. */
export interface ChaosRunCheck {
  check: ChaosCheck;
  /** The outcomes table's rows. */
  rows: Record<string, unknown>[];
  /** Messages each lane's work queue still held (visible, in flight, delayed). */
  queueRemaining: Record<Lane, number>;
}

/**
 * Reads the evidence once the function host has stopped — a Scan of the outcomes table, what each
 * lane's queue still holds (not lost) and its DLQ — and checks the invariant on it alone.
 */
export async function checkChaosRun(
  stack: LocalStack,
  workload: ChaosWorkload,
  run: RunState,
  maxReceiveCount: number,
): Promise<ChaosRunCheck> {
  const rows = await scanOutcomeRows(stack.clients.dynamodb, stack.table);
  // Read after the host stopped: what is still queued (visible, in flight, delayed) is not lost.
  const queueRemaining = {} as Record<Lane, number>;
  const deadLetters = [];
  for (const lane of LANES) {
    queueRemaining[lane] = await queueDepth(stack.clients.sqs, stack.lanes[lane].queueUrl);
    deadLetters.push(...(await readDeadLetters(stack.clients.sqs, stack.lanes[lane].dlqUrl, lane)));
  }
  const check = checkChaosInvariant({
    items: workload.items,
    sent: run.sent,
    rows,
    deadLetters,
    failureReasons: run.failures,
    queueRemaining,
    maxReceiveCount,
  });
  return { check, rows, queueRemaining };
}
