import { renderPrompt } from "../adapter/engine/renderPrompt.js";
import type { BenchContext, Figure } from "./BenchContext.js";
import { caseToBatch } from "./benchWorkload.js";
import type { JevBenchCase } from "./loadJevBench.js";
import { postJson } from "./postJson.js";
import { quantile, sum, timed } from "./statistics.js";

/**
 * P1: a cold decision through the engine (and through HTTP) ÷ node-llama-cpp evaluating exactly
 * the same tokens directly. Pairs run back to back, in alternating order, so drift hits both.
 */
export async function measureOverhead(
  context: BenchContext,
  cases: readonly JevBenchCase[],
  repetitions: number,
): Promise<{ inProcess: Figure; http: Figure | undefined }> {
  const { scorer, floor } = context;
  const adapterMs: number[] = [];
  const rawMs: number[] = [];
  const httpMs: number[] = [];
  const tokenCounts: number[] = [];
  for (let round = 0; round < repetitions; round += 1) {
    for (const [index, testCase] of cases.entries()) {
      const batch = caseToBatch(testCase);
      const question = batch.questions[0];
      if (question === undefined) continue;
      const tokens = floor.tokenize(
        renderPrompt(
          batch.state,
          question.question,
          question.options,
          scorer.labels.slice(0, question.options.length),
        ).text,
      );
      const runAdapter = async (): Promise<void> => {
        await scorer.clearCache();
        const { value, ms } = await timed(() => scorer.scoreBatch(batch));
        if (value.results[0]?.input_tokens !== tokens.length) {
          throw new Error(
            `token mismatch on ${testCase.id}: engine ${value.results[0]?.input_tokens}, raw ${tokens.length}`,
          );
        }
        adapterMs.push(ms);
      };
      const runRaw = async (): Promise<void> => {
        rawMs.push(await floor.evaluate(tokens));
      };
      if ((round + index) % 2 === 0) {
        await runAdapter();
        await runRaw();
      } else {
        await runRaw();
        await runAdapter();
      }
      tokenCounts.push(tokens.length);
      if (context.httpUrl !== undefined) {
        await scorer.clearCache();
        const decision = {
          id: testCase.id,
          state: batch.state,
          question: question.question,
          options: question.options,
        };
        const { value, ms } = await timed(() => postJson(`${context.httpUrl}/invocations`, { decision }));
        if (value.status !== 200)
          throw new Error(`HTTP ${value.status} for ${testCase.id}: ${JSON.stringify(value.body)}`);
        httpMs.push(ms);
      }
      context.log(
        `P1 ${testCase.id}: ${tokens.length} tokens, engine ${adapterMs.at(-1)?.toFixed(0)} ms, raw ${rawMs.at(-1)?.toFixed(0)} ms`,
      );
    }
  }
  const pairRatios = adapterMs.map((ms, index) => ms / (rawMs[index] ?? Number.NaN));
  const inProcessRatio = sum(adapterMs) / sum(rawMs);
  const details = {
    decisions: cases.map((c) => c.id),
    repetitions,
    tokens: tokenCounts,
    engine_ms: adapterMs,
    raw_ms: rawMs,
    pair_ratio_median: quantile(pairRatios, 0.5),
    pair_ratio_min: Math.min(...pairRatios),
    pair_ratio_max: Math.max(...pairRatios),
  };
  const inProcess: Figure = {
    label: "engine ÷ raw node-llama-cpp, cold, same tokens (in-process)",
    value: inProcessRatio,
    goal: "≤ 1.05",
    met: inProcessRatio <= 1.05,
    details,
  };
  if (httpMs.length === 0) return { inProcess, http: undefined };
  const httpRatio = sum(httpMs) / sum(rawMs);
  return {
    inProcess,
    http: {
      label: "adapter over HTTP ÷ raw node-llama-cpp, cold, same tokens",
      value: httpRatio,
      goal: "report (no goal)",
      met: true,
      details: { http_ms: httpMs, raw_ms: rawMs },
    },
  };
}
