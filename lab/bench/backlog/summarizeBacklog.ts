import { quantile } from "../../../evaluation/metrics/statistics.js";

/** One round of the backlog bench: its own backlog drained by the pipeline, and the adapter alone on the same items beside it. */
export interface BacklogRound {
  /** Items the round put on the queue at once. */
  items: number;
  /** Items of the round with an outcome the policy gave. */
  decided: number;
  /** From the pollers' start to the round's last delete, seconds. */
  drainS: number;
  /** The adapter alone on the round's items (one request per distinct policy and state), decisions/s. */
  aloneDecisionsPerS: number;
}

/** What the backlog bench measured, before the arithmetic. */
export interface BacklogMeasurements {
  items: number;
  /** Items with an outcome the policy gave (from the chaos checker over the table). */
  decided: number;
  deadLettered: number;
  lost: number;
  notDrained: number;
  /** Calls the adapter received while the pipeline drained (every round), and their statuses. */
  endpointStatuses: readonly number[];
  /** Records the event source handed to the decide function (first deliveries, redeliveries, re-queued copies). */
  deliveries: number;
  /** The rounds, in the order they ran. */
  rounds: readonly BacklogRound[];
}

/** The top-level numbers of `backlog-<timestamp>.json`. */
export interface BacklogSummary {
  items: number;
  /**
   * Pipeline decisions/s while draining ÷ the adapter alone's decisions/s on the same items:
   * the median over the rounds of each round's ratio (each round's two runs side by side, so a
   * change of the machine's load between rounds does not enter the ratio).
   */
  goodput_ratio: number;
  /** Sum of the rounds' drain times. */
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
  /** Median over the rounds of decided ÷ drain time. */
  pipeline_decisions_per_s: number;
  /** Median over the rounds of the adapter alone's decisions/s. */
  adapter_alone_decisions_per_s: number;
  /** Each round's ratio, in the order they ran. */
  round_ratios: number[];
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
 * The arithmetic of the report: per round, pipeline decisions/s = decided ÷ drain time and its
 * ratio to the adapter alone beside it; goodput ratio = the median of the rounds' ratios; refused
 * share = 503/429 answers ÷ endpoint calls; retries per item = calls not answered 200 ÷ items.
 *
 * @throws {RangeError} without items, without a round, or with a round whose drain time or adapter-alone rate is not positive.
 */
export function summarizeBacklog(m: BacklogMeasurements): BacklogSummary {
  if (m.items <= 0) throw new RangeError("a backlog run needs items");
  if (m.rounds.length === 0) throw new RangeError("no round was measured");
  for (const [index, round] of m.rounds.entries()) {
    if (!(round.drainS > 0))
      throw new RangeError(`round ${index}: the drain time must be positive, got ${round.drainS}`);
    if (!(round.aloneDecisionsPerS > 0)) {
      throw new RangeError(
        `round ${index}: the adapter alone's rate must be positive, got ${round.aloneDecisionsPerS}`,
      );
    }
  }
  const calls = m.endpointStatuses.length;
  const refused = m.endpointStatuses.filter((status) => status === 503 || status === 429).length;
  const notServed = m.endpointStatuses.filter((status) => status !== 200).length;
  const rates = m.rounds.map((round) => round.decided / round.drainS);
  const ratios = m.rounds.map((round, index) => (rates[index] as number) / round.aloneDecisionsPerS);
  return {
    items: m.items,
    goodput_ratio: round3(quantile(ratios, 0.5)),
    drain_s: round3(m.rounds.reduce((total, each) => total + each.drainS, 0)),
    dead_lettered: m.deadLettered,
    lost: m.lost,
    not_drained: m.notDrained,
    endpoint_calls: calls,
    refused_share: calls === 0 ? 0 : round3(refused / calls),
    retries_per_item: round3(notServed / m.items),
    deliveries_per_item: round3(m.deliveries / m.items),
    pipeline_decisions_per_s: round3(quantile(rates, 0.5)),
    adapter_alone_decisions_per_s: round3(
      quantile(
        m.rounds.map((each) => each.aloneDecisionsPerS),
        0.5,
      ),
    ),
    round_ratios: ratios.map(round3),
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
