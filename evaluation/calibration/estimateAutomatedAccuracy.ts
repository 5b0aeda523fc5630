import {
  type ProportionInterval,
  weightedWilsonInterval,
  Z_95_TWO_SIDED,
} from "../metrics/wilsonScoreInterval.js";
import type { LabelledForecast } from "./collectForecasts.js";

/** The accuracy of a question's automated decisions, estimated from its audit items. */
export interface AutomatedAccuracy {
  /** Audit items labelled for the question. */
  audited: number;
  /** Of them, those whose automated answer the person confirmed. */
  agreed: number;
  /** The estimate: the agreeing share, each audit item weighted 1/`audit_rate`. */
  accuracy: number;
  /** Kish's effective sample size of the audit items (their count when every rate is the same). */
  effective_n: number;
  /** Wilson's two-sided 95 % score interval of the accuracy, with n = `effective_n`. */
  interval: ProportionInterval;
  /** The interval's confidence level: 0.95. */
  confidence: 0.95;
}

/**
 * Estimates how often the answers that stood automatically (`decided` items) are right, from the
 * audit items alone: they are a random draw from the decided items (each with probability
 * `audit_rate`), so the share a person confirmed estimates the accuracy of all of them, without
 * the bias of the fallbacks, which are the items the model was unsure of. Items audited at
 * different rates are weighted 1/rate; the interval is Wilson's at the effective sample size.
 * This is the accuracy of the decisions as they were made (the policy's temperature and
 * threshold then), not of a newly fitted threshold.
 *
 * @param forecasts one question's labelled forecasts; only those with `audit` are used
 * @returns undefined when none of them is an audit item (nothing unbiased to estimate from)
 * @example 46 of 50 audit items confirmed → accuracy 0.92, interval ≈ [0.8116, 0.9685]
 */
export function estimateAutomatedAccuracy(
  forecasts: readonly LabelledForecast[],
): AutomatedAccuracy | undefined {
  let audited = 0;
  let agreed = 0;
  let weight = 0;
  let squares = 0;
  let agreeing = 0;
  for (const forecast of forecasts) {
    if (forecast.audit === undefined) continue;
    audited += 1;
    weight += forecast.weight;
    squares += forecast.weight * forecast.weight;
    if (forecast.audit.correct) {
      agreed += 1;
      agreeing += forecast.weight;
    }
  }
  if (audited === 0) return undefined;
  return {
    audited,
    agreed,
    accuracy: agreeing / weight,
    effective_n: (weight * weight) / squares,
    interval: weightedWilsonInterval(agreeing, weight, squares, Z_95_TWO_SIDED),
    confidence: 0.95,
  };
}
