import type { DecisionUsage } from "../../contract/index.js";
import { UsageTally } from "../../core/jobs/index.js";

/** The lane key of decisions whose outcome names no lane (decided before outcomes recorded it, or by `classify`). */
export const UNRECORDED_LANE = "unrecorded";

/** Seconds in the hour an instance price is quoted for. */
const SECONDS_PER_HOUR = 3600;

/** What decisions cost, per decision, for one set of them (all, one policy, one lane). */
export interface CostLine {
  /** Decisions whose outcome records its request's tokens. */
  decisions: number;
  /** Prompt tokens per decision (each request's ÷ its group size). */
  tokens_per_decision: number;
  /** Tokens the endpoint evaluated, per decision. */
  evaluated_tokens_per_decision: number;
  /** Tokens it reused from already evaluated state instead, per decision. */
  cached_tokens_per_decision: number;
  /** Seconds of successful endpoint calls per decision. */
  endpoint_seconds_per_decision: number;
  /** US dollars per 1,000 decisions: endpoint seconds × 1,000 × the instance price per second. */
  usd_per_1000: number;
  /**
   * cached ÷ (cached + evaluated) tokens: an estimate of the share of prompt evaluation the reuse
   * saved (it takes every token to cost the same time); null when the endpoint reported neither.
   */
  cache_share: number | null;
}

/** The cost of a set of decisions at an instance price: overall, by policy, by lane. */
export interface CostReport extends CostLine {
  /** The price the dollars are computed at, US dollars per instance hour. */
  instance_price_usd_per_hour: number;
  /** Outcomes read that record no request tokens (rejected, refused, or older outcomes): left out. */
  without_usage: number;
  by_policy: Record<string, CostLine>;
  /** By the lane the decide function asked in ({@link UNRECORDED_LANE} when the outcome names none). */
  by_lane: Record<string, CostLine>;
}

/**
 * Adds up what decisions cost at the endpoint — overall, by policy and by lane — and prices it:
 * each decision counts its share of its request (tokens and endpoint time ÷ group size,
 * {@link UsageTally}), so per-decision figures are the sums ÷ the decisions.
 *
 * @example
 * const tally = new CostTally();
 * for (const record of records) tally.add(record.policy, record.usage);
 * tally.report(1.2).usd_per_1000;
 */
export class CostTally {
  readonly #all = new UsageTally();
  readonly #byPolicy = new Map<string, UsageTally>();
  readonly #byLane = new Map<string, UsageTally>();
  #withoutUsage = 0;

  /** Adds one decision of `policy`; without usage it is only counted as left out. */
  add(policy: string, usage: DecisionUsage | undefined): void {
    if (usage === undefined) {
      this.#withoutUsage += 1;
      return;
    }
    this.#all.add(usage);
    tallyOf(this.#byPolicy, policy).add(usage);
    tallyOf(this.#byLane, usage.lane ?? UNRECORDED_LANE).add(usage);
  }

  /**
   * The report at `instancePriceUsdPerHour` (US dollars per instance hour).
   * @throws RangeError when the price is not a finite number ≥ 0.
   */
  report(instancePriceUsdPerHour: number): CostReport {
    if (!Number.isFinite(instancePriceUsdPerHour) || instancePriceUsdPerHour < 0)
      throw new RangeError(`the instance price must be a number ≥ 0, got ${instancePriceUsdPerHour}`);
    const line = (tally: UsageTally) => costLineOf(tally, instancePriceUsdPerHour);
    const lines = (tallies: Map<string, UsageTally>) =>
      Object.fromEntries(
        [...tallies].sort(([a], [b]) => a.localeCompare(b)).map(([key, t]) => [key, line(t)]),
      );
    return {
      ...line(this.#all),
      instance_price_usd_per_hour: instancePriceUsdPerHour,
      without_usage: this.#withoutUsage,
      by_policy: lines(this.#byPolicy),
      by_lane: lines(this.#byLane),
    };
  }
}

function tallyOf(tallies: Map<string, UsageTally>, key: string): UsageTally {
  let tally = tallies.get(key);
  if (tally === undefined) {
    tally = new UsageTally();
    tallies.set(key, tally);
  }
  return tally;
}

function costLineOf(tally: UsageTally, usdPerHour: number): CostLine {
  const total = tally.exact();
  const per = (value: number) => (total.decisions === 0 ? 0 : value / total.decisions);
  const seconds = per(total.endpoint_seconds);
  const reused = total.cached_tokens + total.evaluated_tokens;
  return {
    decisions: total.decisions,
    tokens_per_decision: round(per(total.input_tokens), 2),
    evaluated_tokens_per_decision: round(per(total.evaluated_tokens), 2),
    cached_tokens_per_decision: round(per(total.cached_tokens), 2),
    endpoint_seconds_per_decision: round(seconds, 4),
    usd_per_1000: round((seconds * 1000 * usdPerHour) / SECONDS_PER_HOUR, 6),
    cache_share: reused === 0 ? null : round(total.cached_tokens / reused, 4),
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
