import { systemClock } from "../common/Clock.js";
import { Deadline } from "../common/Deadline.js";
import { UnknownPolicyError } from "../common/errors.js";
import { mapBounded } from "../common/mapBounded.js";
import type { PolicySet } from "../policy/index.js";
import { rejectedItemOutcome } from "./buildOutcome.js";
import { FINISH_MARGIN_MS, OUTCOME_WRITE_CONCURRENCY } from "./constants.js";
import { type CallDeadlines, decideGroup, type GroupPorts, settled, writeOutcome } from "./decideGroup.js";
import { groupItems } from "./groupItems.js";
import { parseWorkItem } from "./parseWorkItem.js";
import type { PipelinePorts } from "./ports.js";
import type { ItemResult, ParsedItem, RejectedItem, WorkItemInput } from "./types.js";

/** Why an admitted-looking item is turned away by the caller (see {@link DecideItemsOptions.admit}). */
export interface AdmitRefusal {
  reason: string;
  /** Where in the work item the reason points. */
  reasonPath?: (string | number)[];
}

/** Options of {@link decideItems}. */
export interface DecideItemsOptions {
  /** The loaded policies: items name one, or an EventBridge mapping of one picks it. */
  policies: PolicySet;
  /**
   * Milliseconds the caller has left (a Lambda's `getRemainingTimeInMillis()`). Default: no limit
   * (an offline run).
   */
  remainingMs?: number;
  /**
   * Time kept free at the end: no group starts later than `remainingMs − deadlineMarginMs`;
   * outcome writes run until `remainingMs − min(FINISH_MARGIN_MS, deadlineMarginMs)`.
   */
  deadlineMarginMs: number;
  /** Endpoint requests (groups) in flight at once. */
  maxConcurrentGroups: number;
  /** Outcome writes in flight at once per group (and for the rejected inputs). Default `OUTCOME_WRITE_CONCURRENCY` (8). */
  outcomeWriteConcurrency?: number;
  /** Once aborted, no more groups start (their items fail with its reason). Default none. */
  signal?: AbortSignal;
  /**
   * A caller's own gate on valid items (`decisions classify --policy` turns away other policies):
   * a refusal makes the item a `rejected` outcome with that reason. Default: every item is admitted.
   */
  admit?: (item: ParsedItem) => AdmitRefusal | undefined;
  /**
   * How long an SQS item naming a policy that is not loaded is given back (an `UnknownPolicyError`
   * failure) rather than rejected, counted from its message's `SentTimestamp`: during a rollout
   * producers may send items of a new policy before every instance has it. Default 0: rejected at
   * once (an offline run, where there is no rollout to wait for).
   */
  unknownPolicyWaitMs?: number;
}

/** What a call did. */
export interface DecideItemsResult {
  /** One result per input, in input order. */
  results: ItemResult[];
  /** Groups formed (items sharing a policy and a rendered state). */
  groups: number;
  /** Endpoint requests made (a group not started, or whose items the sink all held, makes none). */
  requests: number;
}

/**
 * The pipeline core: decides a call's work items and settles each one. Never throws: a call in
 * which everything fails returns every input as `failed`.
 *
 * Inputs are read ({@link parseWorkItem}); permanently invalid ones get their `rejected` outcome
 * at once; valid items are grouped by (policy, rendered state) and each group is decided with one
 * endpoint request (`decideGroup`), at most `maxConcurrentGroups` at a time, while the rejections
 * are written. A group not started before the deadline gives its items back; started ones complete.
 *
 * @example
 * const { results } = await decideItems(records.map(parseRecord), ports, {
 *   policies, remainingMs: context.getRemainingTimeInMillis(), deadlineMarginMs: 10_000, maxConcurrentGroups: 4,
 * });
 */
export async function decideItems(
  inputs: readonly WorkItemInput[],
  ports: PipelinePorts,
  options: DecideItemsOptions,
): Promise<DecideItemsResult> {
  const clock = ports.clock ?? systemClock;
  const groupPorts: GroupPorts = { ...ports, clock };
  const startedAt = clock.now();
  const remaining = options.remainingMs ?? Number.POSITIVE_INFINITY;
  const deadlines: CallDeadlines = {
    startBy: Deadline.fromRemaining(remaining, options.deadlineMarginMs, clock),
    finishBy: Deadline.fromRemaining(remaining, Math.min(FINISH_MARGIN_MS, options.deadlineMarginMs), clock),
    startedAt,
  };
  const writeConcurrency = options.outcomeWriteConcurrency ?? OUTCOME_WRITE_CONCURRENCY;
  const results: ItemResult[] = new Array(inputs.length);
  const items: ParsedItem[] = [];
  const rejected: RejectedItem[] = [];
  const waitMs = options.unknownPolicyWaitMs ?? 0;
  for (const [index, input] of inputs.entries()) {
    try {
      const read = parseWorkItem(input, index, options.policies);
      const refusal = read.kind === "item" ? options.admit?.(read) : undefined;
      const waitLeftMs = read.kind === "rejected" && read.unknownPolicy ? waitLeft(read, waitMs, clock) : 0;
      if (read.kind === "rejected" && waitLeftMs > 0) {
        const reason = new UnknownPolicyError(
          read.policyName,
          options.policies.names(),
          Math.ceil(waitLeftMs / 1000),
        );
        results[index] = { status: "failed", reason, policy: read.policyName, id: read.id };
      } else if (read.kind === "rejected") rejected.push(read);
      else if (refusal !== undefined) rejected.push(refused(read, refusal));
      else items.push(read);
    } catch (error) {
      results[index] = { status: "failed", reason: error };
    }
  }
  const groups = groupItems(items);

  const [rejectedResults, groupResults] = await Promise.all([
    mapBounded(rejected, writeConcurrency, (item) => {
      if (ports.outcomes.holds?.(item.policyName, item.id) === true) {
        ports.telemetry.duplicate(item.policyName, item.id);
        return Promise.resolve<ItemResult>({ status: "duplicate", policy: item.policyName, id: item.id });
      }
      return writeOutcome(
        rejectedItemOutcome(item, { now: clock.now(), batchStartedAt: startedAt }),
        groupPorts,
        deadlines.finishBy,
        item.origin,
      );
    }),
    mapBounded(groups, options.maxConcurrentGroups, (group) =>
      decideGroup(group, groupPorts, {
        deadlines,
        writeConcurrency,
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    ),
  ]);
  for (const [i, item] of rejected.entries()) {
    results[item.index] = named(settled(rejectedResults[i]), item.policyName, item.id);
  }
  let requests = 0;
  for (const [g, group] of groups.entries()) {
    const outcome = groupResults[g];
    if (outcome?.status === "fulfilled" && outcome.value.requested) requests += 1;
    for (const [i, item] of group.items.entries()) {
      results[item.index] = named(
        outcome?.status === "fulfilled"
          ? (outcome.value.results[i] ?? settled(undefined))
          : { status: "failed", reason: outcome?.reason },
        item.policy.name,
        item.id,
      );
    }
  }
  ports.telemetry.flush(groups.length);
  return { results, groups: groups.length, requests };
}

function refused(item: ParsedItem, refusal: AdmitRefusal): RejectedItem {
  return {
    kind: "rejected",
    index: item.index,
    origin: item.origin,
    policyName: item.policy.name,
    id: item.id,
    reason: refusal.reason,
    ...(refusal.reasonPath !== undefined ? { reasonPath: refusal.reasonPath } : {}),
    policy: item.policy,
    stateText: item.stateText,
    ...(item.submittedAt !== undefined ? { submittedAt: item.submittedAt } : {}),
    ...(item.event !== undefined ? { event: item.event } : {}),
    ...(item.payload !== undefined ? { payload: item.payload } : {}),
  };
}

/** A failed result with the item it is about, so the caller can log and record its failure by id. */
function named(result: ItemResult, policy: string, id: string): ItemResult {
  return result.status === "failed" ? { ...result, policy, id } : result;
}

/** Milliseconds an item naming an unknown policy may still wait, from its message's send time. */
function waitLeft(item: RejectedItem, waitMs: number, clock: { now(): number }): number {
  if (waitMs <= 0 || item.origin.kind !== "sqs" || item.origin.sentAt === undefined) return 0;
  return item.origin.sentAt + waitMs - clock.now();
}
