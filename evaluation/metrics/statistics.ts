/** Summary statistics of repeated timings. */
export interface Summary {
  n: number;
  median: number;
  mean: number;
  min: number;
  max: number;
  p95: number;
}

/** The q-quantile (0..1) by linear interpolation between order statistics. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] ?? Number.NaN;
  const high = sorted[upper] ?? Number.NaN;
  return low + (high - low) * (position - lower);
}

/** n, median, mean, min, max and 95th percentile of a sample. */
export function summarise(values: readonly number[]): Summary {
  const total = values.reduce((sum, value) => sum + value, 0);
  return {
    n: values.length,
    median: quantile(values, 0.5),
    mean: values.length === 0 ? Number.NaN : total / values.length,
    min: values.length === 0 ? Number.NaN : Math.min(...values),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
    p95: quantile(values, 0.95),
  };
}

/** Runs `task` and returns its result with the elapsed wall time in milliseconds. */
export async function timed<T>(task: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await task();
  return { value, ms: performance.now() - started };
}

/** Sum of a sample. */
export function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
