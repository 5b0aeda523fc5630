import type { LlamaModel } from "node-llama-cpp";
import { Scorer } from "../adapter/engine/Scorer.js";
import type { DecisionBatch } from "../adapter/engine/types.js";
import type { BenchContext, Figure } from "./BenchContext.js";
import { timed } from "./statistics.js";

/**
 * P9: throughput of `concurrency` requests at once on a scorer with that many parallel sequences
 * (`exact` batching) ÷ the same requests one after another on the serial scorer, both cold per
 * request (distinct states). A CPU gains little (DESIGN.md §5); an accelerator should gain.
 */
export async function measureParallel(
  context: BenchContext,
  model: LlamaModel,
  options: { modelPath: string; threads: number; contextSize: number },
  batches: readonly DecisionBatch[],
  concurrency: number,
): Promise<Figure> {
  const { scorer } = context;
  await using parallel = await Scorer.load({
    ...options,
    llama: model.llama,
    model,
    parallelSequences: concurrency,
    cacheMaxBytes: 0,
  });
  await scorer.clearCache();
  const serial = await timed(async () => {
    for (const batch of batches) await scorer.scoreBatch(batch);
  });
  const together = await timed(() => Promise.all(batches.map((batch) => parallel.scoreBatch(batch))));
  const ratio = serial.ms / together.ms;
  context.log(
    `P9 ${batches.length} requests: serial ${serial.ms.toFixed(0)} ms, ${concurrency} sequences ${together.ms.toFixed(0)} ms`,
  );
  return {
    label: `throughput with ${concurrency} parallel sequences ÷ serial (${batches.length} requests)`,
    value: ratio,
    goal: "≥ 1 (not lower); an accelerator should gain",
    met: ratio >= 1,
    details: { requests: batches.length, concurrency, serial_ms: serial.ms, parallel_ms: together.ms },
  };
}
