import type { Forecast } from "../metrics/types.js";
import type { FitTemperatureOptions } from "./fitTemperature.js";
import { logProbabilities } from "./logProbabilities.js";

/** Options of {@link fitContextualCalibration}. */
export interface FitContextualOptions extends FitTemperatureOptions {
  /**
   * Strength of the Gaussian prior on the biases (L2 penalty λ/2·Σb², in nats over the whole set).
   * It picks the mean-zero biases among the equivalent ones (adding a constant to every bias
   * changes nothing) and keeps the bias of a label that is never correct finite. Default 1.
   */
  biasPenalty?: number;
}

/** What {@link fitContextualCalibration} returns. */
export interface ContextualFit {
  /** The fitted temperature T. */
  temperature: number;
  /** Per label (in the forecasts' label order): the bias b_k added to log p_k / T. */
  bias: number[];
  /** Mean negative log-likelihood before (T = 1, no bias) and after (nats). */
  nll_before: number;
  nll_after: number;
  iterations: number;
}

const MAX_ITERATIONS = 100;

/**
 * Fits a temperature and one bias per label by maximum likelihood — contextual calibration
 * (Zhao et al. 2021) in its learned form: calibrated logits z_k = log p_k / T + b_k, softmax.
 * All forecasts must offer the same labels in the same order (one question).
 *
 * z is linear in the parameters (a = 1/T, b), so the penalised mean NLL is convex; Newton's
 * method with the exact Hessian (Σ_i Jᵀ(diag q − q qᵀ)J) and a backtracking line search
 * converges in a few steps. a is kept within [1/maxT, 1/minT].
 *
 * @throws RangeError when the forecasts do not all offer the same labels
 */
export function fitContextualCalibration(
  forecasts: readonly Forecast[],
  options: FitContextualOptions = {},
): ContextualFit {
  const labels = forecasts[0]?.labels ?? [];
  for (const forecast of forecasts) {
    if (forecast.labels.length !== labels.length || forecast.labels.some((label, i) => label !== labels[i])) {
      throw new RangeError("contextual calibration needs forecasts over the same labels in the same order");
    }
  }
  const k = labels.length;
  const items = forecasts
    .map((forecast) => ({
      logs: logProbabilities(forecast.probabilities),
      truth: labels.indexOf(forecast.expected),
    }))
    .filter((item) => item.truth >= 0);
  const penalty = options.biasPenalty ?? 1;
  const aMin = 1 / (options.maxTemperature ?? 100);
  const aMax = 1 / (options.minTemperature ?? 0.05);
  const n = Math.max(1, items.length);
  const objective = (theta: readonly number[]): number => {
    let total = 0;
    for (const { logs, truth } of items) {
      const z = logs.map((l, j) => (theta[0] ?? 1) * l + (theta[j + 1] ?? 0));
      const top = Math.max(...z);
      total += top + Math.log(z.reduce((acc, value) => acc + Math.exp(value - top), 0)) - (z[truth] ?? 0);
    }
    const ridge = theta.slice(1).reduce((acc, b) => acc + b * b, 0);
    return total / n + (penalty * ridge) / (2 * n);
  };
  let theta = [1, ...new Array<number>(k).fill(0)];
  const before = objective(theta);
  let current = before;
  let iterations = 0;
  for (; iterations < MAX_ITERATIONS && items.length > 0; iterations += 1) {
    const { gradient, hessian } = derivatives(items, theta, penalty, n);
    const step = solve(hessian, gradient);
    let scale = 1;
    let next = theta;
    let value = current;
    while (scale > 1e-8) {
      next = theta.map((t, i) => t - scale * (step[i] ?? 0));
      next[0] = Math.min(Math.max(next[0] ?? 1, aMin), aMax);
      value = objective(next);
      if (value <= current) break;
      scale /= 2;
    }
    const improvement = current - value;
    if (value > current) break;
    theta = next;
    current = value;
    if (improvement < 1e-12) break;
  }
  const a = theta[0] ?? 1;
  const bias = theta.slice(1);
  const mean = bias.reduce((acc, b) => acc + b, 0) / Math.max(1, k);
  return {
    temperature: 1 / a,
    bias: bias.map((b) => b - mean),
    nll_before: before,
    nll_after: objective(theta) - (penalty * theta.slice(1).reduce((acc, b) => acc + b * b, 0)) / (2 * n),
    iterations,
  };
}

function derivatives(
  items: readonly { logs: number[]; truth: number }[],
  theta: readonly number[],
  penalty: number,
  n: number,
): { gradient: number[]; hessian: number[][] } {
  const size = theta.length;
  const gradient = new Array<number>(size).fill(0);
  const hessian = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const a = theta[0] ?? 1;
  for (const { logs, truth } of items) {
    const z = logs.map((l, j) => a * l + (theta[j + 1] ?? 0));
    const top = Math.max(...z);
    const weights = z.map((value) => Math.exp(value - top));
    const sum = weights.reduce((acc, w) => acc + w, 0);
    const q = weights.map((w) => w / sum);
    const meanLog = q.reduce((acc, p, j) => acc + p * (logs[j] ?? 0), 0);
    // Jacobian of z: ∂z_j/∂a = l_j, ∂z_j/∂b_m = δ_jm.
    for (const [j, p] of q.entries()) {
      const l = logs[j] ?? 0;
      const residual = p - (j === truth ? 1 : 0);
      addAt(gradient, 0, residual * l);
      addAt(gradient, j + 1, residual);
      addAt2(hessian, 0, 0, p * l * l);
      addAt2(hessian, 0, j + 1, p * (l - meanLog));
      addAt2(hessian, j + 1, 0, p * (l - meanLog));
      addAt2(hessian, j + 1, j + 1, p);
      for (const [m, pm] of q.entries()) addAt2(hessian, j + 1, m + 1, -p * pm);
    }
    addAt2(hessian, 0, 0, -meanLog * meanLog);
  }
  for (let i = 0; i < size; i += 1) {
    gradient[i] = (gradient[i] ?? 0) / n + (i > 0 ? (penalty * (theta[i] ?? 0)) / n : 0);
    const row = hessian[i] ?? [];
    for (let j = 0; j < size; j += 1) row[j] = (row[j] ?? 0) / n;
    // The penalty on the biases, and a tiny ridge on a, keep the system solvable.
    row[i] = (row[i] ?? 0) + (i > 0 ? penalty / n : 1e-9);
  }
  return { gradient, hessian };
}

function addAt(vector: number[], i: number, value: number): void {
  vector[i] = (vector[i] ?? 0) + value;
}

function addAt2(matrix: number[][], i: number, j: number, value: number): void {
  const row = matrix[i];
  if (row !== undefined) row[j] = (row[j] ?? 0) + value;
}

/**
 * Solves H x = g by Gaussian elimination with partial pivoting. Written by hand: no dependency of
 * this package does linear algebra, and the systems are small (labels + 1).
 */
function solve(matrix: readonly number[][], vector: readonly number[]): number[] {
  const size = vector.length;
  const rows = matrix.map((row, i) => [...row, vector[i] ?? 0]);
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let r = column + 1; r < size; r += 1) {
      if (Math.abs(rows[r]?.[column] ?? 0) > Math.abs(rows[pivot]?.[column] ?? 0)) pivot = r;
    }
    [rows[column], rows[pivot]] = [rows[pivot] ?? [], rows[column] ?? []];
    const head = rows[column] ?? [];
    const diagonal = head[column] ?? 0;
    if (Math.abs(diagonal) < 1e-300) continue;
    for (let r = column + 1; r < size; r += 1) {
      const row = rows[r] ?? [];
      const factor = (row[column] ?? 0) / diagonal;
      for (let c = column; c <= size; c += 1) row[c] = (row[c] ?? 0) - factor * (head[c] ?? 0);
    }
  }
  const x = new Array<number>(size).fill(0);
  for (let r = size - 1; r >= 0; r -= 1) {
    const row = rows[r] ?? [];
    let value = row[size] ?? 0;
    for (let c = r + 1; c < size; c += 1) value -= (row[c] ?? 0) * (x[c] ?? 0);
    const diagonal = row[r] ?? 0;
    x[r] = Math.abs(diagonal) < 1e-300 ? 0 : value / diagonal;
  }
  return x;
}
