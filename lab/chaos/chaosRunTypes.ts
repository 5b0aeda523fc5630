import type { Lane } from "../../contract/lanes/lanes.js";
import type { PolicyLoadingReport } from "../reliability/checkPolicyLoading.js";
import type { RecordParsingReport } from "../reliability/checkRecordParsing.js";
import type { ChaosCheck } from "./checkChaosInvariant.js";
import type { FaultProxyLaneStats } from "./FaultProxy.js";
import type { PlannedFault } from "./planFaultSchedule.js";

/** Options of {@link runChaos}; every default is applied here. */
export interface ChaosOptions {
  /** Messages sent in all (valid items, duplicates, dual-policy pairs, ~1% poison). Default 1000. */
  messages?: number;
  /** The share of valid items sent in the bulk lane; the rest go to interactive, interleaved. Default 0.6. */
  bulkShare?: number;
  /** Seed of the workload, the fault schedule and the per-call fault decisions. Default 1. */
  seed?: number;
  /** Multiplies every fault window (DynamoDB's outage stays ≥ 3 s). Default 1. */
  windowScale?: number;
  /** A GGUF to serve. Default: the generated tiny-qwen3 demo model. */
  model?: string;
  /** The policies. Default `<repo>/policies`. */
  policyDir?: string;
  /** The sample work items varied into the workload. Default `<repo>/events`. */
  eventsDir?: string;
  /** The decide function's timeout. Default 12000 ms. */
  functionTimeoutMs?: number;
  /** `DEADLINE_MARGIN_MS` of the decide function. Default 3000 ms. */
  deadlineMarginMs?: number;
  /** The work queue's visibility timeout. Default 2 × the function timeout. */
  visibilityTimeoutSeconds?: number;
  /** Receives before the DLQ. Default 5 (as the CDK app). */
  maxReceiveCount?: number;
  /** Messages sent but not yet ended that the sender keeps in the queue. Default 40. */
  backlog?: number;
  /** llama.cpp threads of the adapter. Default: the adapter's. */
  adapterThreads?: number;
  /**
   * How long the drain may go without progress (no message ended, the work queue no shallower)
   * before the run stops and is judged not drained. The wait follows progress, not a fixed
   * budget: a busy machine drains slowly but steadily. Default 120 s + 2 × the visibility timeout
   * (a record given back waits up to that before it is received again).
   */
  drainStallMs?: number;
  /** The `java` command. Default `"java"`. */
  java?: string;
  /** The environment DynamoDB Local and the adapter start from: the entry point's (`process.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /**
   * Property cases of the record parser and of the policy loader (fast-check, reliability/), run
   * before the pipeline starts, the run's own poison bodies among the parser's. Default 10,000; 0 skips.
   */
  propertyCases?: number;
  /** Progress lines. Default: nowhere. */
  log?: (line: string) => void;
}

/** What the property checks of a chaos run covered. */
export interface PropertyChecks {
  recordParsing: RecordParsingReport;
  policyLoading: PolicyLoadingReport;
  durationS: number;
}

/** A fault as it fired. */
export interface FiredFault {
  kind: PlannedFault["kind"];
  planned: string;
  /** Seconds since the first message was sent. */
  atS: number;
  durationS: number;
  /** What it did, in numbers (calls failed, records in flight at the kill, …). */
  details: Record<string, number | string>;
}

/** What a chaos run found. */
export interface ChaosResult {
  ok: boolean;
  seed: number;
  messages: number;
  check: ChaosCheck;
  schedule: PlannedFault[];
  fired: FiredFault[];
  /** Whether the queue drained (every message deleted or dead-lettered) before progress stalled. */
  drained: boolean;
  /** Messages the work queues still held when the evidence was read (0 when drained), both lanes. */
  queueRemaining: number;
  /** Endpoint calls per lane as the fault proxy saw them over the run, with the faults they met. */
  endpointCallsByLane: Record<Lane, FaultProxyLaneStats>;
  /** Messages SendMessageBatch refused (not part of the check). */
  sendFailures: number;
  durationS: number;
  startupS: number;
  /** The property checks that ran first (undefined when skipped). */
  properties?: PropertyChecks;
  model: string;
  /** Records the decide function gave back to SQS (transient failures), over the run. */
  recordFailures: number;
  /** Records the decide function re-queued as delayed copies because the pipeline was busy. */
  requeues: number;
  /** Those records by the error's class (`DeadlineExceededError`, `RetriesExhaustedError`, …). */
  recordFailuresByError: Record<string, number>;
  /** Median and 95th percentile of the outcomes' own timings (ms): the endpoint call, and from send to outcome. */
  outcomeTimings: { endpoint_ms: [number, number]; queue_to_outcome_ms: [number, number] };
}
