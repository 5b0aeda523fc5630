/** What the backlog bench measured, before the arithmetic. */
export interface BacklogMeasurements {
  items: number;
  /** Items with an outcome the policy gave (from the chaos checker over the table). */
  decided: number;
  /** From the pollers' start to the last record's delete, seconds. */
  drainS: number;
  deadLettered: number;
  lost: number;
  notDrained: number;
  /** Calls the adapter received while the pipeline drained, and their statuses. */
  endpointStatuses: readonly number[];
  /** Records the event source handed to the decide function (first deliveries, redeliveries, re-queued copies). */
  deliveries: number;
  /** The adapter alone at saturation on the same items: its runs' decisions/s. */
  adapterAloneDecisionsPerS: readonly number[];
}

/** The top-level numbers of `backlog-<timestamp>.json`. */
export interface BacklogSummary {
  items: number;
  /** Pipeline decisions/s while draining ÷ the adapter alone's decisions/s on the same items (mean of its runs). */
  goodput_ratio: number;
  drain_s: number;
  dead_lettered: number;
  lost: number;
  not_drained: number;
  endpoint_calls: number;
  /** Answers 503 or 429 ÷ endpoint calls (0 without calls). */
  refused_share: number;
  /** Endpoint calls that did not serve a request (each a retry, or the call before a give-up) ÷ items. */
  retries_per_item: number;
  /** Deliveries of records to the decide function ÷ items (1 when every item was decided on its first delivery). */
  deliveries_per_item: number;
  pipeline_decisions_per_s: number;
  adapter_alone_decisions_per_s: number;
}

/** The goal of the bench (issue: busy is not failed). */
export const BACKLOG_GOAL = {
  goodput_ratio: 0.9,
  dead_lettered: 0,
  lost: 0,
  refused_share: 0.1,
} as const;

/** Whether a summary meets {@link BACKLOG_GOAL} (not_drained must be 0 as well). */
export function meetsBacklogGoal(summary: BacklogSummary): boolean {
  return (
    summary.goodput_ratio >= BACKLOG_GOAL.goodput_ratio &&
    summary.dead_lettered === BACKLOG_GOAL.dead_lettered &&
    summary.lost === BACKLOG_GOAL.lost &&
    summary.not_drained === 0 &&
    summary.refused_share <= BACKLOG_GOAL.refused_share
  );
}

/**
 * The arithmetic of the report: pipeline decisions/s = decided ÷ drain time; goodput ratio =
 * that ÷ the mean of the adapter-alone runs; refused share = 503/429 answers ÷ endpoint calls;
 * retries per item = calls not answered 200 ÷ items.
 *
 * @throws {RangeError} without items, with a drain time ≤ 0 or without an adapter-alone run.
 */
export function summarizeBacklog(m: BacklogMeasurements): BacklogSummary {
  if (m.items <= 0) throw new RangeError("a backlog run needs items");
  if (!(m.drainS > 0)) throw new RangeError(`the drain time must be positive, got ${m.drainS}`);
  if (m.adapterAloneDecisionsPerS.length === 0) throw new RangeError("no adapter-alone run was measured");
  const calls = m.endpointStatuses.length;
  const refused = m.endpointStatuses.filter((status) => status === 503 || status === 429).length;
  const notServed = m.endpointStatuses.filter((status) => status !== 200).length;
  const alone =
    m.adapterAloneDecisionsPerS.reduce((total, each) => total + each, 0) / m.adapterAloneDecisionsPerS.length;
  const pipeline = m.decided / m.drainS;
  return {
    items: m.items,
    goodput_ratio: round(pipeline / alone),
    drain_s: round(m.drainS),
    dead_lettered: m.deadLettered,
    lost: m.lost,
    not_drained: m.notDrained,
    endpoint_calls: calls,
    refused_share: calls === 0 ? 0 : round(refused / calls),
    retries_per_item: round(notServed / m.items),
    deliveries_per_item: round(m.deliveries / m.items),
    pipeline_decisions_per_s: round(pipeline),
    adapter_alone_decisions_per_s: round(alone),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
