import {
  type ProportionInterval,
  wilsonScoreInterval,
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
  /**
   * The effective sample size the interval uses: p̂(1 − p̂) over the design variance of the
   * weighted share (their count when every rate is the same; see {@link estimateAutomatedAccuracy}).
   */
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
 * different rates (`audit_strata`, or a rate changed over time) are weighted 1/rate; the interval
 * is Wilson's at the effective sample size p̂(1 − p̂)/v̂ (Korn and Graubard 1998), where v̂ =
 * Σ wᵢ²(yᵢ − p̂)² / (Σ wᵢ)² is the linearisation variance of the weighted share (Särndal, Swensson
 * and Wretman 1992, with-replacement form: conservative for the hash's Poisson draw). With every
 * weight equal this is the audit count; with strata it credits rates that follow where the errors
 * are, which Kish's (Σw)²/Σw² would not. When every item agrees (or none does), v̂ is 0 and Kish's
 * size is used.
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
  const accuracy = agreeing / weight;
  let spread = 0;
  for (const forecast of forecasts) {
    if (forecast.audit === undefined) continue;
    const y = forecast.audit.correct ? 1 : 0;
    spread += forecast.weight * forecast.weight * (y - accuracy) ** 2;
  }
  const kish = (weight * weight) / squares;
  const variance = spread / (weight * weight);
  const effective = variance > 0 ? (accuracy * (1 - accuracy)) / variance : kish;
  return {
    audited,
    agreed,
    accuracy,
    effective_n: effective,
    interval: wilsonScoreInterval(accuracy * effective, effective, Z_95_TWO_SIDED),
    confidence: 0.95,
  };
}
