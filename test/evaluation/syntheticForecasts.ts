/**
 * Seeded synthetic labelled forecasts for the calibration tests: logits drawn at random, labels
 * sampled from softmax(logit / T_true), the fitter given softmax(logit) — what a model with
 * temperature T_true miscalibration would return.
 */
import { seededUniform } from "../../core/common/SeededRandom.js";
import type { Forecast } from "../../evaluation/metrics/types.js";

/** The project's seeded uniform stream, under the name these tests use. */
export const seededRandom = seededUniform;

/** A standard normal draw (Box–Muller). */
export function normal(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export function softmax(logits: readonly number[], temperature = 1): number[] {
  const scaled = logits.map((z) => z / temperature);
  const top = Math.max(...scaled);
  const weights = scaled.map((z) => Math.exp(z - top));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / sum);
}

/** Draws an index from a distribution. */
export function sample(random: () => number, probabilities: readonly number[]): number {
  let u = random();
  for (const [index, p] of probabilities.entries()) {
    u -= p;
    if (u < 0) return index;
  }
  return probabilities.length - 1;
}

export interface SyntheticItem {
  id: string;
  /** What the model returns: softmax(logit). */
  forecast: Forecast;
  /** The distribution labels were drawn from: softmax(logit / T_true). */
  truth: number[];
}

/** `n` items over `labels`, logits N(0, scale²) per label (plus a per-item shift on one label). */
export function syntheticItems(options: {
  n: number;
  labels: readonly string[];
  trueTemperature: number;
  seed: number;
  scale?: number;
}): SyntheticItem[] {
  const random = seededRandom(options.seed);
  const scale = options.scale ?? 3;
  return Array.from({ length: options.n }, (_, index) => {
    const logits = options.labels.map(() => scale * normal(random));
    const truth = softmax(logits, options.trueTemperature);
    const expected = options.labels[sample(random, truth)] ?? "";
    return {
      id: `item-${index}`,
      forecast: { labels: options.labels, probabilities: softmax(logits), expected },
      truth,
    };
  });
}
