import type { ChaosCheck } from "../../chaos/checkChaosInvariant.js";
import type { describeMachine } from "../describeMachine.js";
import type { CpuByPart } from "../pipeline/measureCpu.js";
import type { DEFAULT_ITEMS } from "./constants.js";
import type { EndpointProfile } from "./profileEndpointCalls.js";
import type { InvocationProfile } from "./profileInvocations.js";
import type { BACKLOG_GOAL, BacklogSummary } from "./summarizeBacklog.js";
import type { TokenUsage } from "./tokenUsage.js";

/** Options of {@link runBacklogBench}. */
export interface BacklogBenchOptions {
  /** The environment DynamoDB Local and the adapter start from: the entry point's (`process.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Work items put on the queue at once. Default {@link DEFAULT_ITEMS}: 90 (200 with `quick`). */
  items?: number;
  /** The generated tiny-qwen3 model and 200 items: a few minutes on 2 cores. Default false. */
  quick?: boolean;
  /** GGUF to serve. Default: the generated qwen3-0.6b-shape (tiny-qwen3 with `quick`). */
  modelPath?: string;
  /** llama.cpp threads of the adapter. Default: the adapter's. */
  threads?: number;
  /** CPU-bound processes (`sh -c 'while :; do :; done'`) kept running beside the whole run, killed after. Default 0. */
  busy?: number;
  /**
   * Function instances (each its own decide handler, so its own limiter and retry budget, under an
   * event source slot of concurrency 1, as Lambda runs one invocation per instance). Default: the
   * event source's maximum concurrency the CDK app derives from what the adapter admits
   * (`deriveLaneCapacity`: 2 for 1 running + 8 waiting).
   */
  instances?: number;
  /** `MAX_CONCURRENT_GROUPS` of each instance. Default: the CDK app's derivation (4 for 9 admitted). */
  maxConcurrentGroups?: number;
  /**
   * Rounds: the items are split into this many backlogs, each drained by the pipeline with the
   * adapter alone measured on the same items right beside it (in turn before and after), so that
   * the goodput ratio is a median of side-by-side ratios, not two runs minutes apart. Default 3.
   */
  rounds?: number;
  /**
   * The decide function's timeout. Default 120000 ms, the CDK app's default
   * (`functionTimeoutSeconds`): a shorter one defers groups that a deployment would have run.
   */
  functionTimeoutMs?: number;
  /** The work queue's visibility timeout. Default 2 × the function timeout. */
  visibilityTimeoutSeconds?: number;
  /** The drain stops, judged not drained, once nothing has ended for this long. Default 120 s + 2 × the visibility timeout. */
  stallMs?: number;
  /** Seed of the workload. Default 1. */
  seed?: number;
  /** Where the JSON goes. Default: `lab/bench/results`. */
  outDir?: string;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** `backlog-<timestamp>.json`: the summary's numbers at the top, then how they were measured. */
export interface BacklogBenchReport extends BacklogSummary {
  command: string;
  started_at: string;
  duration_s: number;
  quick: boolean;
  goal: typeof BACKLOG_GOAL;
  goal_met: boolean;
  machine: ReturnType<typeof describeMachine> & {
    load_average_start: number[];
    load_average_end: number[];
    /** CPU-bound processes the bench ran beside itself. */
    busy_processes: number;
  };
  model: string;
  workload: {
    policies: Record<string, number>;
    shared_items: number;
    single_items: number;
    /** Requests the items need at best: one per distinct (policy, state) in each round. */
    distinct_requests: number;
  };
  setup: {
    instances: number;
    max_concurrent_groups: number;
    batch_size: number;
    maximum_batching_window_ms: number;
    function_timeout_ms: number;
    visibility_timeout_s: number;
    max_receive_count: number;
    adapter_admission: { running: number; waiting: number };
    /** How the instances and groups were chosen: the CDK app's derivation, or given. */
    sizing: string;
    /** Calls the pipeline may have in flight at once (instances × groups) against the admission. */
    calls_in_flight: number;
  };
  adapter_alone: { runs: { wall_s: number; decisions_per_s: number; requests: number }[]; clients: number };
  /** Each round: its backlog, how long the pipeline took, the adapter alone beside it, and their ratio. */
  rounds: {
    items: number;
    order: "alone first" | "pipeline first";
    drain_s: number;
    pipeline_decisions_per_s: number;
    adapter_alone_decisions_per_s: number;
    ratio: number;
    /** Where the drain's time went at the endpoint (see {@link EndpointProfile}). */
    endpoint: EndpointProfile;
    /** And at the function instances (see {@link InvocationProfile}). */
    functions: InvocationProfile;
    /** Tokens the adapter's answers say it evaluated and reused: the pipeline's calls, and the alone run's. */
    tokens: { pipeline: TokenUsage; adapter_alone: TokenUsage };
  }[];
  endpoint_statuses: Record<string, number>;
  check: Pick<ChaosCheck, "ok" | "counts" | "violations">;
  /** CPU seconds per part (and the wall time) of each phase; warm-up included, so its cost is visible. */
  cpu_seconds: { warm_up: CpuByPart; adapter_alone: CpuByPart; pipeline: CpuByPart };
}

/** A phase's wall time and CPU seconds by part ({@link measureCpu}). */
export interface MeasuredPhase {
  wallS: number;
  cpu: CpuByPart;
}
