import { renderUserText, SYSTEM_TEXT } from "../../adapter/engine/prompt/renderPrompt.js";
import type { JevBenchCase } from "../../evaluation/jevbench/loadJevBench.js";
import { sum, timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext, Figure } from "./BenchContext.js";
import { caseToBatch } from "./benchWorkload.js";

/** Most tokens the standard path may generate for one answer (a label, maybe a period, end of turn). */
export const STANDARD_PATH_MAX_TOKENS = 8;

/**
 * P4: the same decisions answered by generation on the standard chat path (generate the label,
 * parse it) vs the one-pass readout. Both start cold on identical prompt tokens, so the
 * difference is exactly readout vs generation.
 */
export async function measureStandardPath(
  context: BenchContext,
  cases: readonly JevBenchCase[],
): Promise<Figure> {
  const { scorer } = context;
  const readoutMs: number[] = [];
  const generationMs: number[] = [];
  let readoutValid = 0;
  let generationValid = 0;
  const samples: string[] = [];
  const completionTokens: number[] = [];
  for (const testCase of cases) {
    const batch = caseToBatch(testCase);
    const question = batch.questions[0];
    if (question === undefined) continue;
    const labels = scorer.labels.slice(0, question.options.length);
    await scorer.clearCache();
    const readout = await timed(() => scorer.scoreBatch(batch));
    readoutMs.push(readout.ms);
    const probabilities = readout.value.results[0]?.probabilities ?? [];
    const total = sum(probabilities);
    if (probabilities.length === labels.length && Math.abs(total - 1) < 1e-6) readoutValid += 1;

    await scorer.clearCache();
    const messages = [
      { role: "system" as const, content: SYSTEM_TEXT },
      {
        role: "user" as const,
        content: renderUserText(batch.state, question.question, question.options, labels),
      },
    ];
    const generation = await timed(() => scorer.complete({ messages, maxTokens: STANDARD_PATH_MAX_TOKENS }));
    generationMs.push(generation.ms);
    completionTokens.push(generation.value.usage.completion_tokens);
    const answer = parseLabel(generation.value.content, labels);
    if (answer !== undefined) generationValid += 1;
    if (samples.length < 5) samples.push(generation.value.content);
    context.log(
      `P4 ${testCase.id}: readout ${readout.ms.toFixed(0)} ms, generation ${generation.ms.toFixed(0)} ms`,
    );
  }
  const speedup = sum(generationMs) / sum(readoutMs);
  const readoutShare = readoutValid / readoutMs.length;
  return {
    label: "standard path (generate + parse) ÷ one-pass readout, same decisions",
    value: speedup,
    goal: "≥ 1.5, readout 100% valid",
    met: speedup >= 1.5 && readoutShare === 1,
    details: {
      decisions: readoutMs.length,
      max_tokens: STANDARD_PATH_MAX_TOKENS,
      readout_ms: readoutMs,
      generation_ms: generationMs,
      readout_valid_share: readoutShare,
      generation_valid_share: generationValid / generationMs.length,
      generation_samples: samples,
      completion_tokens: completionTokens,
      // The first token comes from the prompt's evaluation; each further one costs one decode step.
      ms_per_decode_step:
        (sum(generationMs) - sum(readoutMs)) /
        Math.max(1, sum(completionTokens.map((n) => Math.max(0, n - 1)))),
    },
  };
}

/** The offered label a generated answer names, if it names exactly one (e.g. "B", " B.", "B\n"). */
export function parseLabel(content: string, labels: readonly string[]): string | undefined {
  const match = /^\s*([A-Z]{1,2})(?![A-Za-z])/.exec(content);
  const label = match?.[1];
  return label !== undefined && labels.includes(label) ? label : undefined;
}
