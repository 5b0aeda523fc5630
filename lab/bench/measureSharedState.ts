import type { DecisionQuestion } from "../../adapter/engine/types.js";
import { sum, timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext, Figure } from "./BenchContext.js";
import { statePrefixTokens } from "./benchWorkload.js";

/**
 * P2: eight questions about one state in one request ÷ the same eight as separate cold requests.
 * Also reports the token-count limit of that ratio (what perfect sharing would give), so the
 * figure can be read against its physical bound.
 */
export async function measureSharedState(
  context: BenchContext,
  state: string,
  questions: readonly DecisionQuestion[],
  repetitions: number,
  /** What the questions are, for the label. Default: "questions". */
  kind = "questions",
): Promise<Figure> {
  const { scorer } = context;
  const sharedMs: number[] = [];
  const separateMs: number[] = [];
  for (let round = 0; round < repetitions; round += 1) {
    await scorer.clearCache();
    sharedMs.push((await timed(() => scorer.scoreBatch({ state, questions: [...questions] }))).ms);
    let separate = 0;
    for (const question of questions) {
      await scorer.clearCache();
      separate += (await timed(() => scorer.scoreBatch({ state, questions: [question] }))).ms;
    }
    separateMs.push(separate);
    context.log(
      `P2 (${kind}) round ${round + 1}: shared ${sharedMs.at(-1)?.toFixed(0)} ms, separate ${separate.toFixed(0)} ms`,
    );
  }
  const measure = scorer.measure({ state, questions: [...questions] });
  const separateTokens = measure.questionTokens.reduce((a, b) => a + b, 0);
  const ratio = sum(separateMs) / sum(sharedMs);
  const tokenLimit = separateTokens / measure.batchTokens;
  return {
    label: `${questions.length} ${kind} on one state: separate cold requests ÷ one shared request`,
    value: ratio,
    goal: "≥ 5",
    met: ratio >= 5,
    details: {
      state_tokens: statePrefixTokens(scorer, state, questions[0] as DecisionQuestion),
      prompt_tokens: measure.questionTokens,
      shared_request_tokens: measure.batchTokens,
      separate_requests_tokens: separateTokens,
      token_limit_ratio: tokenLimit,
      efficiency_vs_limit: ratio / tokenLimit,
      shared_ms: sharedMs,
      separate_ms: separateMs,
    },
  };
}
