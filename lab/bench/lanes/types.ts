import type { JobCounts, Lane } from "../../../contract/index.js";
import type { BenchMachine } from "../describeMachine.js";
import type { LanesSummary } from "./summarizeLanes.js";
import type { LaneEnds } from "./tallyLaneEnds.js";

/** Options of {@link runLanesBench}; every default is applied there. */
export interface LanesBenchOptions {
  /** The environment DynamoDB Local and the adapter start from: the entry point's (`process.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Smaller run: default 200 lines and 8 interactive items alone (a few minutes on 2 idle cores). */
  quick?: boolean;
  /** Lines of the bulk job. Default 200 with `quick`, else 1000. */
  lines?: number;
  /**
   * Interactive items per second, alone and during the drain. Default: one per 10 evaluations
   * timed at the warm-up (at most 1/s), so that interactive work takes about a tenth of one
   * evaluation slot — the bulk goal (≥ 0.9 of alone) allows no more — whatever the machine's load.
   */
  rate?: number;
  /** Interactive items sent alone. Default 8 with `quick`, else 30. */
  interactiveAlone?: number;
  /** CPU-bound processes beside the whole run. Default 0. */
  busy?: number;
  /** GGUF to serve. Default: the generated tiny-qwen3. */
  modelPath?: string;
  /** The adapter's CPU threads. Default: the adapter's. */
  threads?: number;
  /** Folder for `lanes-<timestamp>.json`; null writes nothing. Default lab/bench/results. */
  outDir?: string | null;
  /**
   * A wait (a job's lines, the interactive items' outcomes) goes on while outcomes keep arriving,
   * and gives up after this long without one; what had not ended then is reported `not ended`.
   * Default 600000 ms.
   */
  stallMs?: number;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** One bulk job phase: its lines, put → completed, and the job's counts. */
export interface BulkPhase {
  lines: number;
  /** Put → the job's `completed_at`; for a job that did not complete, put → its last progress. */
  ms: number;
  /** `lines` ÷ `ms`; for a job that did not complete, its ended lines ÷ `ms`. */
  lines_per_s: number;
  job_id: string;
  /** The job's status as the jobs table holds it at the end of the phase. */
  status: string;
  /** Whether the job completed (its "Decision Job Completed" event came). */
  completed: boolean;
  counts: JobCounts;
  /** Rows of the outcomes table under this job's item ids, and the distinct ids its lines name. */
  outcome_rows: number;
  item_ids: number;
  /**
   * The job's lines' evaluations: p50 and p95 of their outcomes' `timings.endpoint_ms`, the time
   * one bulk call holds the engine (an interactive call arriving then waits for at most one).
   */
  evaluation_ms: { p50: number; p95: number };
}

/** What each lane holds at the end of the run, and where its items without an outcome are. */
export interface LaneCheck extends LaneEnds {
  /** Work items sent to the lane (interactive: items; bulk: the jobs' distinct item ids). */
  items: number;
  /** Of them, those with a row in the outcomes table. */
  outcomes: number;
  /** Messages the lane's work queue still held. */
  queued: number;
}

/** Everything one lanes bench run measured; written as `lanes-<timestamp>.json`. */
export interface LanesBenchReport extends LanesSummary {
  command: string;
  started_at: string;
  duration_s: number;
  machine: BenchMachine & {
    load_average_start: number[];
    load_average_end: number[];
    busy_processes: number;
  };
  model: string;
  settings: {
    lines: number;
    rate_per_s: number;
    /** `warm-up`: one item per 10 evaluations timed at the warm-up, at most 1/s; `--rate`: given. */
    rate_from: "warm-up" | "--rate";
    /** The warm-up's evaluation (median `timings.endpoint_ms`) the default rate was derived from. */
    warm_up_evaluation_ms: number;
    interactive_alone: number;
    stall_ms: number;
  };
  /** The p50 of the interactive items' `timings.endpoint_ms` alone: one evaluation, the goal's allowance. */
  evaluation_ms: number;
  bulk_alone: BulkPhase;
  bulk_during: BulkPhase;
  /** Interactive items sent during the drain, and how many were decided before the job completed. */
  interactive_during_sent: number;
  interactive_during_before_completion: number;
  /** Per lane: items, outcomes, queued, dead-lettered, not ended, lost — from the queues, DLQs and outcomes table. */
  lanes: Record<Lane, LaneCheck>;
  dead_lettered: number;
  not_ended: number;
  lost: number;
  duplicated: number;
}
