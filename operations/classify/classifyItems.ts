import {
  decidedOutcome,
  type OutcomeTimes,
  refusedItemOutcome,
  rejectedRecordOutcome,
} from "../../functions/decide/buildOutcome.js";
import { buildSystemOneBody } from "../../functions/decide/buildSystemOneBody.js";
import { groupItems } from "../../functions/decide/groupItems.js";
import { parseRecord } from "../../functions/decide/parseRecord.js";
import { readSystemOneResponse } from "../../functions/decide/readSystemOneResponse.js";
import type { ParsedItem, RejectedRecord } from "../../functions/decide/types.js";
import type { Outcome, OutcomeStatus } from "../../functions/outcomes/index.js";
import { decide, type Policy, type PolicySet } from "../../functions/policy/index.js";
import { PermanentError } from "../../functions/shared/errors.js";
import type { InProcessEndpoint } from "./InProcessEndpoint.js";
import { type ResultsFile, type ResumeState, resultKey } from "./ResultsFile.js";
import type { ItemRecord } from "./readItemRecords.js";

/** Progress of a run, after each outcome written. */
export interface ClassifyProgress {
  /** Items with an outcome in the results file (skipped ones included). */
  done: number;
  /** Items in the input. */
  total: number;
}

/** Options of {@link classifyItems}. */
export interface ClassifyItemsOptions {
  /** The input's lines as records (see `readItemRecords`). */
  records: readonly ItemRecord[];
  /** The policy asked for (`--policy`): items of another policy are rejected. */
  policy: Policy;
  /** Every loaded policy (events are mapped by them, as the decide function does). */
  policies: PolicySet;
  endpoint: InProcessEndpoint;
  results: ResultsFile;
  /** What the results file already holds: those items are skipped. */
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
  /** Outcomes written by this run, by status. */
  written: Partial<Record<OutcomeStatus, number>>;
  /** Groups of items sharing a state (one engine call each), and the calls this run made. */
  groups: number;
  requests: number;
}

/**
 * Offline batch classification through the pipeline's own units: each line is read by the decide
 * function's `parseRecord`, items sharing a policy and rendered state are grouped by its
 * `groupItems` (over the whole input, so group sizes do not depend on what an earlier run wrote),
 * each group is asked with its `buildSystemOneBody` through the {@link InProcessEndpoint}, the
 * answer is read by `readSystemOneResponse`, decided by the policy's `decide`, and written in the
 * outcome format by the decide function's builders (`source.kind: "file"` with the line).
 *
 * Items already in the results file are skipped, and every outcome is appended as soon as it is
 * built, so a run killed at any moment resumes where it stopped. An item id that repeats keeps its
 * first outcome, as the pipeline's conditional write does. A request the engine refuses for good
 * (a state longer than the context) rejects its items with the reason; any other engine failure
 * stops the run (rerun to resume).
 */
export async function classifyItems(options: ClassifyItemsOptions): Promise<ClassifySummary> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const { done } = options.resume;
  const lineOf = new Map<number, number>();
  const items: ParsedItem[] = [];
  const rejected: RejectedRecord[] = [];
  options.records.forEach((entry, index) => {
    lineOf.set(index, entry.line);
    const parsed = parseRecord(entry.record, index, options.policies);
    if (parsed.kind === "rejected") rejected.push(parsed);
    else if (parsed.policy.name === options.policy.name) items.push(parsed);
    else rejected.push(otherPolicy(parsed, options.policy));
  });
  const total = items.length + rejected.length;
  const keys = [
    ...items.map((item) => resultKey(item.policy.name, item.id)),
    ...rejected.map((r) => resultKey(r.policyName, r.id)),
  ];
  const before = new Set(done);
  const summary: ClassifySummary = {
    total,
    skipped: keys.filter((key) => before.has(key)).length,
    written: {},
    groups: 0,
    requests: 0,
  };
  let finished = summary.skipped;
  const times = (): OutcomeTimes => ({ now: now(), batchStartedAt: startedAt });
  // A repeated id: the first outcome stands, as with the pipeline's conditional write.
  const repeated = (): void => {
    finished += 1;
    options.onProgress?.({ done: finished, total });
  };
  const write = async (outcome: Outcome, index: number): Promise<void> => {
    const key = resultKey(outcome.policy, outcome.id);
    if (done.has(key)) return repeated();
    finished += 1;
    await options.results.append(fromFile(outcome, lineOf.get(index) ?? 0));
    done.add(key);
    summary.written[outcome.status] = (summary.written[outcome.status] ?? 0) + 1;
    options.onProgress?.({ done: finished, total });
  };

  for (const record of rejected) {
    if (!before.has(resultKey(record.policyName, record.id))) {
      await write(rejectedRecordOutcome(record, times()), record.record.index);
    }
  }
  const groups = groupItems(items);
  summary.groups = groups.length;
  for (const group of groups) {
    const pending: ParsedItem[] = [];
    for (const item of group.items) {
      const key = resultKey(item.policy.name, item.id);
      if (before.has(key)) continue;
      if (done.has(key)) repeated();
      else pending.push(item);
    }
    if (pending.length === 0) continue;
    options.signal?.throwIfAborted();
    const size = group.items.length;
    summary.requests += 1;
    let invocation: Awaited<ReturnType<InProcessEndpoint["invoke"]>>;
    try {
      invocation = await options.endpoint.invoke(
        buildSystemOneBody(group.policy, group.stateText),
        options.signal ? { signal: options.signal } : {},
      );
    } catch (error) {
      if (!(error instanceof PermanentError)) throw error;
      for (const item of pending) {
        await write(
          refusedItemOutcome(item, error.message, options.endpoint.endpointName, size, times()),
          item.record.index,
        );
      }
      continue;
    }
    const read = readSystemOneResponse(invocation.body, group.policy, options.endpoint.endpointName);
    const request = { endpointName: options.endpoint.endpointName, invocation, read, groupSize: size };
    for (const item of pending) {
      const decision = decide(group.policy, item.facts, read.response.answers);
      await write(decidedOutcome(item, decision, request, times()), item.record.index);
    }
  }
  return summary;
}

/** The outcome with its source saying it came from line `line` of a file (not a queue). */
function fromFile(outcome: Outcome, line: number): Outcome {
  const { event_source, event_detail_type } = outcome.source;
  return {
    ...outcome,
    source: {
      kind: "file",
      line,
      ...(event_source !== undefined ? { event_source } : {}),
      ...(event_detail_type !== undefined ? { event_detail_type } : {}),
    },
  };
}

function otherPolicy(item: ParsedItem, asked: Policy): RejectedRecord {
  return {
    kind: "rejected",
    record: item.record,
    policyName: item.policy.name,
    id: item.id,
    reason: `the item is for policy "${item.policy.name}", and this run classifies "${asked.name}" (--policy)`,
    reasonPath: ["policy"],
    policy: item.policy,
    stateText: item.stateText,
    ...(item.submittedAt !== undefined ? { submittedAt: item.submittedAt } : {}),
    ...(item.event !== undefined ? { event: item.event } : {}),
  };
}
