import type { SQSRecord } from "aws-lambda";
import type { PolicySet } from "../policy/index.js";
import { type Clock, systemClock } from "../shared/Clock.js";
import { Deadline } from "../shared/Deadline.js";
import { mapBounded } from "../shared/mapBounded.js";
import { rejectedRecordOutcome } from "./buildOutcome.js";
import { FINISH_MARGIN_MS, OUTCOME_WRITE_CONCURRENCY } from "./constants.js";
import { type BatchDeadlines, decideGroup, type GroupDeps, writeOutcome } from "./decideGroup.js";
import { groupItems } from "./groupItems.js";
import { parseRecord } from "./parseRecord.js";
import type { ParsedItem, RecordResult, RejectedRecord } from "./types.js";

/** Settings of {@link decideBatch}. */
export interface DecideSettings {
  /** Time kept free at the end: no group starts later than `remaining − deadlineMarginMs`. */
  deadlineMarginMs: number;
  /** Endpoint requests (groups) in flight at once. */
  maxConcurrentGroups: number;
}

/** Everything {@link decideBatch} works with; clients passed in. */
export interface DecideDeps extends Omit<GroupDeps, "clock"> {
  policies: PolicySet;
  settings: DecideSettings;
  /** Default: the system clock. */
  clock?: Clock;
}

/**
 * Decides a batch of SQS records and returns one settled result per record, in record order (the
 * shape `@middy/sqs-partial-batch-failure` turns into `batchItemFailures`). Never throws: a batch
 * in which every record failed returns them all as rejected results.
 *
 * Records are parsed ({@link parseRecord}); permanently invalid ones get their `rejected` outcome
 * at once; valid items are grouped by (policy, rendered state) and each group is decided with one
 * endpoint request ({@link decideGroup}), at most `maxConcurrentGroups` at a time. A group not
 * started before the deadline fails its records; started ones complete.
 */
export async function decideBatch(
  records: readonly SQSRecord[],
  context: { getRemainingTimeInMillis(): number },
  deps: DecideDeps,
): Promise<PromiseSettledResult<RecordResult>[]> {
  const clock = deps.clock ?? systemClock;
  const batchStartedAt = clock.now();
  const remaining = context.getRemainingTimeInMillis();
  const deadlines: BatchDeadlines = {
    startBy: Deadline.fromRemaining(remaining, deps.settings.deadlineMarginMs, clock),
    finishBy: Deadline.fromRemaining(
      remaining,
      Math.min(FINISH_MARGIN_MS, deps.settings.deadlineMarginMs),
      clock,
    ),
    batchStartedAt,
  };
  const results: PromiseSettledResult<RecordResult>[] = new Array(records.length);
  const items: ParsedItem[] = [];
  const rejected: RejectedRecord[] = [];
  for (const [index, record] of records.entries()) {
    try {
      const parsed = parseRecord(record, index, deps.policies);
      if (parsed.kind === "item") items.push(parsed);
      else rejected.push(parsed);
    } catch (error) {
      results[index] = { status: "rejected", reason: error };
    }
  }
  const groups = groupItems(items);
  const groupDeps = { ...deps, clock };

  const [rejectedResults, groupResults] = await Promise.all([
    mapBounded(rejected, OUTCOME_WRITE_CONCURRENCY, (record) =>
      writeOutcome(rejectedRecordOutcome(record, { now: clock.now(), batchStartedAt }), deps, deadlines),
    ),
    mapBounded(groups, deps.settings.maxConcurrentGroups, (group) =>
      decideGroup(group, groupDeps, deadlines),
    ),
  ]);
  for (const [i, record] of rejected.entries()) results[record.record.index] = settled(rejectedResults[i]);
  for (const [g, group] of groups.entries()) {
    const outcome = groupResults[g];
    for (const [i, item] of group.items.entries()) {
      results[item.record.index] =
        outcome?.status === "fulfilled"
          ? settled(outcome.value[i])
          : { status: "rejected", reason: outcome?.reason };
    }
  }
  deps.telemetry.flush(groups.length);
  return results;
}

function settled(result: PromiseSettledResult<RecordResult> | undefined): PromiseSettledResult<RecordResult> {
  return result ?? { status: "rejected", reason: new Error("no result was produced for this record") };
}
