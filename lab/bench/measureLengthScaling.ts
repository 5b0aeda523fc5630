import type { DecisionQuestion } from "../../adapter/engine/types.js";
import { timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext } from "./BenchContext.js";
import { stateOfTokens, statePrefixTokens } from "./benchWorkload.js";

/** One row of the cost-versus-state-length table. */
export interface LengthRow {
  /** Target state length in tokens, and what the prompt prefix really had. */
  target_tokens: number;
  state_tokens: number;
  /** One question, nothing cached. */
  cold_ms: number;
  /** One new question on a state an earlier request evaluated. */
  cached_ms: number;
  /** Eight questions in one request, nothing cached: total, and per question. */
  shared8_ms: number;
  shared8_per_question_ms: number;
}

/** How cost grows with the state length: cold, cached state, and shared eight-question requests. */
export async function measureLengthScaling(
  context: BenchContext,
  source: string,
  targets: readonly number[],
  questions: readonly DecisionQuestion[],
): Promise<LengthRow[]> {
  const { scorer } = context;
  const rows: LengthRow[] = [];
  const [first, second] = questions;
  if (first === undefined || second === undefined)
    throw new Error("length scaling needs at least two questions");
  for (const target of targets) {
    const state = stateOfTokens(scorer, source, target, first);
    await scorer.clearCache();
    const cold = await timed(() => scorer.scoreBatch({ state, questions: [first] }));
    const cached = await timed(() => scorer.scoreBatch({ state, questions: [second] }));
    await scorer.clearCache();
    const shared = await timed(() => scorer.scoreBatch({ state, questions: [...questions] }));
    rows.push({
      target_tokens: target,
      state_tokens: statePrefixTokens(scorer, state, first),
      cold_ms: cold.ms,
      cached_ms: cached.ms,
      shared8_ms: shared.ms,
      shared8_per_question_ms: shared.ms / questions.length,
    });
    context.log(
      `length ${target}: cold ${cold.ms.toFixed(0)} ms, cached ${cached.ms.toFixed(0)} ms, shared×${questions.length} ${shared.ms.toFixed(0)} ms`,
    );
  }
  return rows;
}
