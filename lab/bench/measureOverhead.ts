import { renderPrompt } from "../../adapter/engine/prompt/renderPrompt.js";
import type { DecisionBatch, DecisionResult } from "../../adapter/engine/types.js";
import type { JevBenchCase } from "../../evaluation/jevbench/loadJevBench.js";
import { quantile, sum, timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext, Figure } from "./BenchContext.js";
import { caseToBatch } from "./benchWorkload.js";
import { postJson } from "./postJson.js";

/** A state no JevBench case uses: scored before a measurement so that only the preamble is cached. */
const OTHER_STATE = "An unrelated earlier request, so that the engine is warm but has not seen this state.";

/**
 * P1: a decision through the engine (and through HTTP) ÷ node-llama-cpp evaluating exactly the
 * tokens the engine had to evaluate, in one call, on top of the same cached prefix.
 *
 * - `new state` (the headline): the engine has served other requests, so the preamble is cached
 *   and the state is new — what a running endpoint sees. The floor evaluates the same uncached
 *   tokens on top of the same preamble.
 * - `cold`: nothing cached at all; the floor evaluates the whole prompt.
 *
 * Pairs run back to back, in alternating order, so drift hits both sides alike.
 */
export async function measureOverhead(
  context: BenchContext,
  cases: readonly JevBenchCase[],
  repetitions: number,
): Promise<{ newState: Figure; cold: Figure; http: Figure | undefined }> {
  const { scorer, floor } = context;
  const samples = { newState: new Pairs(), cold: new Pairs(), http: new Pairs() };
  for (let round = 0; round < repetitions; round += 1) {
    for (const [index, testCase] of cases.entries()) {
      const batch = caseToBatch(testCase);
      const question = batch.questions[0];
      if (question === undefined) continue;
      const labels = scorer.labels.slice(0, question.options.length);
      const tokens = floor.tokenize(
        renderPrompt(batch.state, question.question, question.options, labels).text,
      );
      const engineFirst = (round + index) % 2 === 0;
      const warm = async (): Promise<void> => {
        await scorer.clearCache();
        await scorer.scoreBatch({ state: OTHER_STATE, questions: [question] });
      };
      const check = (result: DecisionResult | undefined): DecisionResult => {
        if (result?.input_tokens !== tokens.length) {
          throw new Error(
            `token mismatch on ${testCase.id}: engine ${result?.input_tokens}, floor ${tokens.length}`,
          );
        }
        return result;
      };

      // What each mode reuses is fixed by the prompt; learn it once, untimed (this also warms up).
      await warm();
      const preambleReused = check((await scorer.scoreBatch(batch)).results[0]).cached_tokens;

      // New state, preamble cached.
      await pair(
        engineFirst,
        samples.newState,
        async () => {
          await warm();
          const { value, ms } = await timed(() => scorer.scoreBatch(batch));
          check(value.results[0]);
          return ms;
        },
        () => floor.evaluateSuffix(tokens.slice(0, preambleReused), tokens.slice(preambleReused)),
      );

      // Cold: nothing cached.
      await pair(
        engineFirst,
        samples.cold,
        async () => {
          await warm();
          await scorer.clearCache();
          const { value, ms } = await timed(() => scorer.scoreBatch(batch));
          check(value.results[0]);
          return ms;
        },
        () => floor.evaluate(tokens),
      );

      if (context.httpUrl !== undefined) {
        const url = `${context.httpUrl}/invocations`;
        await pair(
          engineFirst,
          samples.http,
          async () => {
            await warm();
            const { value, ms } = await timed(() =>
              postJson(url, { decision: toDecision(testCase.id, batch) }),
            );
            if (value.status !== 200)
              throw new Error(`HTTP ${value.status} for ${testCase.id}: ${JSON.stringify(value.body)}`);
            check((value.body as { result: DecisionResult }).result);
            return ms;
          },
          () => floor.evaluateSuffix(tokens.slice(0, preambleReused), tokens.slice(preambleReused)),
        );
      }
      samples.newState.evaluated.push(tokens.length - preambleReused);
      samples.newState.tokens.push(tokens.length);
      context.log(
        `P1 ${testCase.id}: ${tokens.length} tokens; new state: engine ${samples.newState.engine.at(-1)?.toFixed(0)} ms, floor ${samples.newState.floor.at(-1)?.toFixed(0)} ms; cold: engine ${samples.cold.engine.at(-1)?.toFixed(0)} ms, floor ${samples.cold.floor.at(-1)?.toFixed(0)} ms`,
      );
    }
  }
  const newState = samples.newState.figure(
    "engine ÷ raw node-llama-cpp on the same uncached tokens (new state, preamble cached; in-process)",
    "≤ 1.05",
    1.05,
  );
  newState.details.decisions = cases.map((c) => c.id);
  newState.details.repetitions = repetitions;
  newState.details.prompt_tokens = samples.newState.tokens;
  newState.details.evaluated_tokens = samples.newState.evaluated;
  return {
    newState,
    cold: samples.cold.figure(
      "engine ÷ raw node-llama-cpp, nothing cached, whole prompt (in-process)",
      "≤ 1.05",
      1.05,
    ),
    http:
      samples.http.engine.length === 0
        ? undefined
        : samples.http.figure(
            "adapter over HTTP ÷ raw node-llama-cpp (new state, preamble cached)",
            "report",
            Infinity,
          ),
  };
}

/** Paired timings of the engine and its floor. */
class Pairs {
  readonly engine: number[] = [];
  readonly floor: number[] = [];
  readonly evaluated: number[] = [];
  readonly tokens: number[] = [];

  figure(label: string, goal: string, limit: number): Figure {
    const ratio = sum(this.engine) / sum(this.floor);
    const pairRatios = this.engine.map((ms, index) => ms / (this.floor[index] ?? Number.NaN));
    return {
      label,
      value: ratio,
      goal,
      met: ratio <= limit,
      details: {
        engine_ms: this.engine,
        floor_ms: this.floor,
        pair_ratio_median: quantile(pairRatios, 0.5),
        pair_ratio_min: Math.min(...pairRatios),
        pair_ratio_max: Math.max(...pairRatios),
      },
    };
  }
}

/** Runs the engine and the floor back to back (in the given order) and records both. */
async function pair(
  engineFirst: boolean,
  samples: Pairs,
  engine: () => Promise<number>,
  floor: () => Promise<number>,
): Promise<void> {
  if (engineFirst) {
    samples.engine.push(await engine());
    samples.floor.push(await floor());
  } else {
    samples.floor.push(await floor());
    samples.engine.push(await engine());
  }
}

function toDecision(id: string, batch: DecisionBatch) {
  const question = batch.questions[0];
  return { id, state: batch.state, question: question?.question, options: question?.options };
}
