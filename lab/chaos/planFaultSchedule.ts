import type { SeededRandom } from "../../core/common/SeededRandom.js";

/** One fault of a chaos run, planned before it starts. `at` is the share of messages ended that triggers it. */
export type PlannedFault =
  | { kind: "adapter-errors"; at: number; durationMs: number; status: number; share: number }
  | { kind: "slow-answers"; at: number; durationMs: number; share: number; delayMs: [number, number] }
  | { kind: "adapter-kill"; at: number; downMs: number }
  | { kind: "dynamodb-stop"; at: number; downMs: number }
  | { kind: "poller-kill"; at: number; downMs: number; afterBatchStartMs: number };

/** The kinds of fault, one of each per run. */
export type FaultKind = PlannedFault["kind"];

/** Options of {@link planFaultSchedule}. */
export interface FaultScheduleOptions {
  random: SeededRandom;
  /** Multiplies every fault window (1: the full run's; a CI run uses less). Default 1. */
  windowScale?: number;
  /**
   * When answers held back arrive: the decide function's own time to start a request (its
   * timeout less its deadline margin). Slow answers are drawn from 70–115% of it, so some arrive
   * just before the deadline and some just after.
   */
  deadlineMs: number;
}

/** Full-run windows, in milliseconds, before `windowScale`. */
const WINDOWS = {
  adapterErrorsMs: 20_000,
  slowAnswersMs: 20_000,
  adapterDownMs: 2_000,
  dynamodbDownMs: 10_000,
  pollerDownMs: 2_000,
} as const;

/**
 * The seeded fault schedule of a chaos run: each fault once, in a seeded order, triggered at
 * seeded points between 10% and 75% of the messages ended (so items still flow after the last
 * one): the adapter answering 503 to 60–80% of calls for a while; answers held back until near
 * the function's deadline; the adapter process killed and restarted; DynamoDB Local stopped for
 * ~10 s and restarted on its data folder; the function host (the poller) killed mid-batch and
 * restarted. The same seed gives the same schedule.
 */
export function planFaultSchedule(options: FaultScheduleOptions): PlannedFault[] {
  const { random } = options;
  const scale = options.windowScale ?? 1;
  const ms = (value: number) => Math.round(value * scale);
  const kinds = random.shuffle<FaultKind>([
    "adapter-errors",
    "slow-answers",
    "adapter-kill",
    "dynamodb-stop",
    "poller-kill",
  ]);
  const step = (0.75 - 0.1) / kinds.length;
  return kinds.map((kind, slot) =>
    planFault(kind, round(0.1 + step * slot + random.between(0, step * 0.8)), random, ms, options.deadlineMs),
  );
}

function planFault(
  kind: FaultKind,
  at: number,
  random: SeededRandom,
  ms: (value: number) => number,
  deadlineMs: number,
): PlannedFault {
  switch (kind) {
    case "adapter-errors":
      return {
        kind,
        at,
        durationMs: ms(WINDOWS.adapterErrorsMs),
        status: 503,
        share: round(random.between(0.6, 0.8)),
      };
    case "slow-answers":
      return {
        kind,
        at,
        durationMs: ms(WINDOWS.slowAnswersMs),
        share: round(random.between(0.3, 0.5)),
        delayMs: [Math.round(deadlineMs * 0.7), Math.round(deadlineMs * 1.15)],
      };
    case "adapter-kill":
      return { kind, at, downMs: ms(WINDOWS.adapterDownMs) };
    case "dynamodb-stop":
      // "~10 s": the outage is the point of this fault, so a CI run keeps at least 3 s of it.
      return { kind, at, downMs: Math.max(3_000, ms(WINDOWS.dynamodbDownMs)) };
    case "poller-kill":
      return {
        kind,
        at,
        downMs: ms(WINDOWS.pollerDownMs),
        afterBatchStartMs: Math.round(random.between(80, 400)),
      };
  }
}

/** One line per fault, as the run prints its schedule. */
export function describePlannedFault(fault: PlannedFault): string {
  const at = `at ${(fault.at * 100).toFixed(0)}% ended`;
  switch (fault.kind) {
    case "adapter-errors":
      return `${at}: the adapter answers ${fault.status} to ${(fault.share * 100).toFixed(0)}% of calls for ${fault.durationMs / 1000} s`;
    case "slow-answers":
      return `${at}: ${(fault.share * 100).toFixed(0)}% of answers held back ${fault.delayMs[0]}–${fault.delayMs[1]} ms (near the deadline) for ${fault.durationMs / 1000} s`;
    case "adapter-kill":
      return `${at}: the adapter process killed (SIGKILL), restarted after ${fault.downMs / 1000} s`;
    case "dynamodb-stop":
      return `${at}: DynamoDB Local stopped for ${fault.downMs / 1000} s, restarted on its data folder`;
    case "poller-kill":
      return `${at}: the function host (poller + decide handler) killed ${fault.afterBatchStartMs} ms into a batch, restarted after ${fault.downMs / 1000} s`;
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
