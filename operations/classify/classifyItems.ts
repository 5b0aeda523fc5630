import { systemClock } from "../../core/common/Clock.js";
import type { OutcomeStatus } from "../../core/outcomes/index.js";
import {
  type DecisionEndpoint,
  decideItems,
  type PipelineTelemetry,
  type WorkItemInput,
} from "../../core/pipeline/index.js";
import type { Policy, PolicySet } from "../../core/policy/index.js";
import { type ResultsFile, type ResumeState, resultKey } from "./ResultsFile.js";

/** Progress of a run, after each item settled. */
export interface ClassifyProgress {
  /** Items settled: with an outcome in the results file (skipped ones included). */
  done: number;
  /** Items in the input. */
  total: number;
  /** Of `done`, the items skipped because the results file had them already. */
  skipped: number;
}

/** Options of {@link classifyItems}. */
export interface ClassifyItemsOptions {
  /** The input's lines (see `readItemLines`). */
  items: readonly WorkItemInput[];
  /** The policy asked for (`--policy`): items of another policy are rejected. */
  policy: Policy;
  /** Every loaded policy (events are mapped by them, as the decide function does). */
  policies: PolicySet;
  /** The decision endpoint: an `InProcessEndpoint` over the engine. */
  endpoint: DecisionEndpoint;
  results: ResultsFile;
  /** What the results file held when opened: those items are skipped. */
  resume: ResumeState;
  /** The clock, epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  onProgress?: (progress: ClassifyProgress) => void;
  /** Stops between groups, and aborts the group in flight. */
  signal?: AbortSignal;
}

/** What a run did. */
export interface ClassifySummary {
  /** Items in the input. */
  total: number;
  /** Items skipped because the results file had them already. */
  skipped: number;
  /**
   * Ids that repeat within the input (`policy/id`, once per repetition): the first line's outcome
   * stands, the later lines are not decided. Reported, not counted as already in the results.
   */
  repeated: string[];
  /** Outcomes written by this run, by status. */
  written: Partial<Record<OutcomeStatus, number>>;
  /**
   * Per input item (same order as `items`), the policy and id its outcome is stored under — for a
   * repeated id or an item skipped on resume, the outcome that stands. What the results file is
   * assembled from (`writeClassifyResults`).
   */
  keys: { policy: string; id: string }[];
  /** Groups of items sharing a state (one engine call each), and the calls this run made. */
  groups: number;
  requests: number;
}

/**
 * Offline batch classification through the pipeline core (`decideItems`), as the decide function
 * runs it, with the {@link InProcessEndpoint} as its endpoint and the {@link ResultsFile} as its
 * outcome sink (`source.kind: "file"` with the line). Items are grouped over the whole input, so
 * group sizes do not depend on what an earlier run wrote; one group is asked at a time.
 *
 * Items already in the results file are skipped (a group whose items it all holds is not asked),
 * and every outcome is appended as soon as it is built, so a run killed at any moment resumes where
 * it stopped. An item id that repeats keeps its first outcome, as the pipeline's conditional write
 * does. A request the engine refuses for good (a state longer than the context) rejects its items
 * with the reason.
 *
 * @throws the signal's reason when aborted; the first failure (an engine that failed, an invalid
 *   answer, a write the file refused) once the other groups have run: rerun to resume.
 */
export async function classifyItems(options: ClassifyItemsOptions): Promise<ClassifySummary> {
  const before = options.resume.done;
  const total = options.items.length;
  const summary: ClassifySummary = {
    total,
    skipped: 0,
    repeated: [],
    written: {},
    keys: [],
    groups: 0,
    requests: 0,
  };
  let done = 0;
  const settled = (): void => {
    done += 1;
    options.onProgress?.({ done, total, skipped: summary.skipped });
  };
  const telemetry: PipelineTelemetry = {
    requestAnswered: () => undefined,
    retrying: () => undefined,
    flush: () => undefined,
    outcomeWritten: (_policy, status) => {
      summary.written[status] = (summary.written[status] ?? 0) + 1;
      settled();
    },
    duplicate: (policy, id) => {
      // Held when the run started: skipped. Otherwise a repeated id whose first outcome this run wrote.
      if (before.has(resultKey(policy, id))) summary.skipped += 1;
      else summary.repeated.push(`${policy}/${id}`);
      settled();
    },
  };
  const asked = options.policy.name;
  const run = await decideItems(
    options.items,
    {
      endpoint: options.endpoint,
      outcomes: options.results,
      telemetry,
      clock: options.now ? { now: options.now, sleep: systemClock.sleep } : systemClock,
    },
    {
      policies: options.policies,
      // No deadline offline; one engine call at a time (the engine serialises them anyway).
      deadlineMarginMs: 0,
      maxConcurrentGroups: 1,
      ...(options.signal ? { signal: options.signal } : {}),
      admit: (item) =>
        item.policy.name === asked
          ? undefined
          : {
              reason: `the item is for policy "${item.policy.name}", and this run classifies "${asked}" (--policy)`,
              reasonPath: ["policy"],
            },
    },
  );
  options.signal?.throwIfAborted();
  const failed = run.results.find((result) => result.status === "failed");
  if (failed !== undefined) throw failed.reason;
  summary.keys = run.results.map((result) => {
    if (result.status === "recorded") return { policy: result.outcome.policy, id: result.outcome.id };
    if (result.status === "duplicate") return { policy: result.policy, id: result.id };
    // Unreachable: a failed item was thrown above.
    throw result.reason;
  });
  summary.groups = run.groups;
  summary.requests = run.requests;
  return summary;
}
