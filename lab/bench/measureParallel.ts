import type { LlamaModel } from "node-llama-cpp";
import { Scorer } from "../../adapter/engine/Scorer.js";
import type { DecisionBatch } from "../../adapter/engine/types.js";
import { quantile, timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext, Figure } from "./BenchContext.js";

/** States no JevBench case uses: scored first so that every sequence has its preamble cached. */
const warmupState = (lane: number): string =>
  `An unrelated earlier request (${lane}), so this sequence is warm.`;

/**
 * P9: throughput of `concurrency` requests at once on a scorer with that many parallel sequences
 * (`exact` batching) ÷ the same requests one after another on the serial scorer, each request on a
 * new state with the preamble cached — what a running endpoint sees, as P1's "new state". Each
 * sequence is warmed first with a request of its own (untimed): a fresh scorer evaluates the
 * preamble once per sequence, which the first run of this figure counted against the parallel side
 * (measured: cold 0.78 and 0.88 of serial in two runs, warm 0.92–1.10 in four). Both sides hold
 * the same KV memory: the serial context's size is split among the sequences, as llama-server
 * splits `-c` among its `-np` slots (the requests are short JevBench cases and fit). Each sequence
 * holding the full size instead measured 0.945–0.966 (three runs); split, 0.99–1.07. A CPU gains
 * little (prefill is compute-bound there); an accelerator should gain.
 */
export async function measureParallel(
  context: BenchContext,
  model: LlamaModel,
  options: { modelPath: string; threads: number; contextSize: number },
  batches: readonly DecisionBatch[],
  concurrency: number,
  repetitions: number,
): Promise<Figure> {
  const { scorer } = context;
  await using parallel = await Scorer.load({
    ...options,
    llama: model.llama,
    model,
    parallelSequences: concurrency,
    contextSize: Math.floor(options.contextSize / concurrency),
    cacheMaxBytes: 0,
  });
  const [question] = batches[0]?.questions ?? [];
  if (question === undefined) throw new Error("P9 needs at least one batch with a question");
  const runSerial = async (): Promise<number> => {
    await scorer.clearCache();
    await scorer.scoreBatch({ state: warmupState(0), questions: [question] });
    return (
      await timed(async () => {
        for (const batch of batches) await scorer.scoreBatch(batch);
      })
    ).ms;
  };
  const runParallel = async (): Promise<number> => {
    await parallel.clearCache();
    await Promise.all(
      Array.from({ length: concurrency }, (_, lane) =>
        parallel.scoreBatch({ state: warmupState(lane), questions: [question] }),
      ),
    );
    return (await timed(() => Promise.all(batches.map((batch) => parallel.scoreBatch(batch))))).ms;
  };
  // Rounds in alternating order, so drift hits both sides alike; medians of each side.
  const serialMs: number[] = [];
  const parallelMs: number[] = [];
  for (let round = 0; round < repetitions; round += 1) {
    if (round % 2 === 0) {
      serialMs.push(await runSerial());
      parallelMs.push(await runParallel());
    } else {
      parallelMs.push(await runParallel());
      serialMs.push(await runSerial());
    }
  }
  const serial = quantile(serialMs, 0.5);
  const together = quantile(parallelMs, 0.5);
  const ratio = serial / together;
  context.log(
    `P9 ${batches.length} requests × ${repetitions}: serial median ${serial.toFixed(0)} ms, ${concurrency} sequences ${together.toFixed(0)} ms`,
  );
  return {
    label: `throughput with ${concurrency} parallel sequences ÷ serial (${batches.length} requests, the same KV memory)`,
    value: ratio,
    goal: "≥ 1 (not lower); an accelerator should gain",
    met: ratio >= 1,
    details: {
      requests: batches.length,
      concurrency,
      repetitions,
      serial_ms: serial,
      parallel_ms: together,
      serial_samples_ms: serialMs,
      parallel_samples_ms: parallelMs,
    },
  };
}
