import type { Forecast } from "../metrics/types.js";
import { weightOf } from "../metrics/weightOf.js";
import { logProbabilities } from "./logProbabilities.js";

/** Options of {@link fitTemperature}. */
export interface FitTemperatureOptions {
  /** Lowest temperature allowed. Default 0.05. */
  minTemperature?: number;
  /** Highest temperature allowed (the policy format's maximum). Default 100. */
  maxTemperature?: number;
}

/** What {@link fitTemperature} returns. */
export interface TemperatureFit {
  /** The maximum-likelihood temperature T (within the bounds). */
  temperature: number;
  /** Mean negative log-likelihood at T = 1 and at the fitted T (nats). */
  nll_before: number;
  nll_after: number;
  /** Newton/bisection steps taken. */
  iterations: number;
  /** Whether the optimum lies at a bound (the data asks for a temperature outside them). */
  at_bound: boolean;
}

const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-10;

/**
 * Fits one temperature to labelled forecasts by maximum likelihood (temperature scaling, Guo et
 * al. 2017). The forecasts hold probabilities as the model returned them; since the engine's
 * log p differs from the logit by one constant per question, p^(1/T) renormalised equals
 * softmax(logit / T), so the fit works on log p directly.
 *
 * Why Newton on a = 1/T: the mean NLL(a) = mean_i [logsumexp_k(a·l_ik) − a·l_i,y] is convex in a
 * (a log-sum-exp of functions linear in a), and both derivatives are closed-form — the first is
 * the mean of E_q[l] − l_y, the second the mean variance of l under the tempered distribution q.
 * Newton converges in a handful of steps; it is safeguarded by bisection on the sign of the
 * derivative inside [1/maxT, 1/minT], so it cannot diverge on flat or separable data (where the
 * optimum is at a bound). Golden-section search on log T would also work but needs ~50 function
 * evaluations for the same precision and ignores the available derivatives.
 *
 * Each forecast counts with its weight (default 1): the likelihood is the weighted mean, so an
 * audit item weighted 1/`audit_rate` stands for the decided items it was drawn from.
 *
 * @param forecasts labelled forecasts of one question; those whose `expected` is not among their
 *   `labels` are left out
 * @example fitTemperature(overconfident).temperature → 2.0 (flattens)
 */
export function fitTemperature(
  forecasts: readonly Forecast[],
  options: FitTemperatureOptions = {},
): TemperatureFit {
  const minT = options.minTemperature ?? 0.05;
  const maxT = options.maxTemperature ?? 100;
  const items = forecasts
    .map((forecast) => ({
      logs: logProbabilities(forecast.probabilities),
      truth: forecast.labels.indexOf(forecast.expected),
      weight: weightOf(forecast),
    }))
    .filter((item) => item.truth >= 0);
  const nll = (a: number): number => meanNll(items, a);
  if (items.length === 0) return result(1, Number.NaN, Number.NaN, 0, false);
  let low = 1 / maxT;
  let high = 1 / minT;
  if (derivatives(items, low).gradient >= 0) return result(1 / low, nll(1), nll(low), 0, true);
  if (derivatives(items, high).gradient <= 0) return result(1 / high, nll(1), nll(high), 0, true);
  let a = Math.min(Math.max(1, low), high);
  let iterations = 0;
  for (; iterations < MAX_ITERATIONS; iterations += 1) {
    const { gradient, curvature } = derivatives(items, a);
    if (gradient > 0) high = a;
    else low = a;
    let next = curvature > 0 ? a - gradient / curvature : Number.NaN;
    if (!(next > low && next < high)) next = (low + high) / 2;
    const step = Math.abs(next - a);
    a = next;
    if (step < TOLERANCE * Math.max(1, a) || high - low < TOLERANCE) break;
  }
  return result(1 / a, nll(1), nll(a), iterations + 1, false);
}

function result(
  temperature: number,
  before: number,
  after: number,
  iterations: number,
  atBound: boolean,
): TemperatureFit {
  return { temperature, nll_before: before, nll_after: after, iterations, at_bound: atBound };
}

interface Item {
  logs: number[];
  truth: number;
  weight: number;
}

function totalWeight(items: readonly Item[]): number {
  return items.reduce((sum, item) => sum + item.weight, 0);
}

function meanNll(items: readonly Item[], a: number): number {
  let total = 0;
  for (const { logs, truth, weight } of items) {
    const scaled = logs.map((l) => a * l);
    const top = Math.max(...scaled);
    const sum = scaled.reduce((acc, z) => acc + Math.exp(z - top), 0);
    total += weight * (top + Math.log(sum) - (scaled[truth] ?? Number.NEGATIVE_INFINITY));
  }
  return items.length === 0 ? 0 : total / totalWeight(items);
}

/** First and second derivative of the weighted mean NLL with respect to a = 1/T. */
function derivatives(items: readonly Item[], a: number): { gradient: number; curvature: number } {
  let gradient = 0;
  let curvature = 0;
  for (const { logs, truth, weight } of items) {
    const scaled = logs.map((l) => a * l);
    const top = Math.max(...scaled);
    const masses = scaled.map((z) => Math.exp(z - top));
    const sum = masses.reduce((acc, m) => acc + m, 0);
    let mean = 0;
    let square = 0;
    for (const [index, mass] of masses.entries()) {
      const q = mass / sum;
      const l = logs[index] ?? 0;
      mean += q * l;
      square += q * l * l;
    }
    gradient += weight * (mean - (logs[truth] ?? 0));
    curvature += weight * Math.max(0, square - mean * mean);
  }
  const n = items.length === 0 ? 1 : totalWeight(items);
  return { gradient: gradient / n, curvature: curvature / n };
}
