import type { ChaosResult } from "./chaosRunTypes.js";

/** Median and 95th percentile (ms) of the outcomes' endpoint call and send → outcome times; 0 where none has one. */
export function outcomeTimings(rows: readonly Record<string, unknown>[]): ChaosResult["outcomeTimings"] {
  const of = (field: string): [number, number] => {
    const values = rows
      .map((row) => (row.timings as Record<string, unknown> | undefined)?.[field])
      .filter((value): value is number => typeof value === "number")
      .sort((a, b) => a - b);
    const at = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
    return [Math.round(at(0.5)), Math.round(at(0.95))];
  };
  return { endpoint_ms: of("endpoint_ms"), queue_to_outcome_ms: of("queue_to_outcome_ms") };
}
