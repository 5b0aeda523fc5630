import { renderPrompt } from "../../adapter/engine/prompt/renderPrompt.js";
import type { DecisionQuestion, DecisionResult } from "../../adapter/engine/types.js";
import { sum, timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext, Figure } from "./BenchContext.js";

/**
 * P3: a request whose state an earlier request already evaluated (with a new question) ÷
 * node-llama-cpp evaluating only that request's uncached suffix on top of the same prefix.
 * Also reports the speed-up over the same request cold.
 */
export async function measureCrossRequestCache(
  context: BenchContext,
  state: string,
  first: DecisionQuestion,
  second: DecisionQuestion,
  repetitions: number,
): Promise<Figure> {
  const { scorer, floor } = context;
  const cachedMs: number[] = [];
  const coldMs: number[] = [];
  const suffixFloorMs: number[] = [];
  let cachedTokens = 0;
  let suffixTokens = 0;
  const labels = scorer.labels.slice(0, second.options.length);
  const tokens = floor.tokenize(renderPrompt(state, second.question, second.options, labels).text);
  for (let round = 0; round < repetitions; round += 1) {
    await scorer.clearCache();
    await scorer.scoreBatch({ state, questions: [first] });
    const cached = await timed(() => scorer.scoreBatch({ state, questions: [second] }));
    cachedMs.push(cached.ms);
    const result = cached.value.results[0] as DecisionResult;
    cachedTokens = result.cached_tokens;
    suffixTokens = result.evaluated_tokens;
    suffixFloorMs.push(await floor.evaluateSuffix(tokens.slice(0, cachedTokens), tokens.slice(cachedTokens)));
    await scorer.clearCache();
    coldMs.push((await timed(() => scorer.scoreBatch({ state, questions: [second] }))).ms);
    context.log(
      `P3 round ${round + 1}: cached ${cached.ms.toFixed(0)} ms, suffix floor ${suffixFloorMs.at(-1)?.toFixed(0)} ms, cold ${coldMs.at(-1)?.toFixed(0)} ms`,
    );
  }
  const ratio = sum(cachedMs) / sum(suffixFloorMs);
  return {
    label: "cached-state request ÷ raw evaluation of its uncached suffix",
    value: ratio,
    goal: "≤ 1.1",
    met: ratio <= 1.1,
    details: {
      prompt_tokens: tokens.length,
      reused_tokens: cachedTokens,
      evaluated_tokens: suffixTokens,
      cached_ms: cachedMs,
      suffix_floor_ms: suffixFloorMs,
      cold_ms: coldMs,
      speedup_vs_cold: sum(coldMs) / sum(cachedMs),
    },
  };
}
