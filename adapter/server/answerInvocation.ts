import { modelNameOf } from "../engine/model/modelNameOf.js";
import { answerSystemOne } from "../engine/systemOne/SystemOne.js";
import type { DecisionEngine, DecisionResult } from "../engine/types.js";
import { chatCompletionResponse } from "./chatCompletionResponse.js";
import type { PreparedInvocation } from "./prepareInvocation.js";

/** Counters of one answered request, for its log line. */
export interface InvocationSummary {
  /** Questions scored (decisions, System One questions), or 0 for chat. */
  questions: number;
  input_tokens: number;
  /** Tokens evaluated (not reused from cache); for chat, the prompt tokens. */
  evaluated_tokens: number;
  cached_tokens: number;
  /** Tokens generated (chat only). */
  output_tokens: number;
  /** Time waiting for the engine, in milliseconds. */
  queue_ms: number;
  /** Time in the engine, waiting included, in milliseconds. */
  engine_ms: number;
}

/** A response body and what it cost. */
export interface InvocationAnswer {
  body: unknown;
  summary: InvocationSummary;
}

/**
 * Runs a prepared invocation on the engine and shapes its response body: SemIf `{result}` or
 * `{results, timing}`, System One's response (with the model's sha256 and the adapter build), or
 * an OpenAI chat completion.
 * @throws whatever the engine throws (map it with `mapEngineError`).
 */
export async function answerInvocation(
  engine: DecisionEngine,
  prepared: PreparedInvocation,
  signal: AbortSignal,
  /** The adapter build System One answers name (`adapter_build`); default none. */
  adapterBuild?: string,
): Promise<InvocationAnswer> {
  const started = performance.now();
  const { invocation } = prepared;
  switch (invocation.kind) {
    case "semif": {
      const scored = await engine.scoreBatch(invocation.batch, { signal, prepared: prepared.prepared });
      const summary = summarise(scored.results, scored.timing.queue_ms, performance.now() - started);
      if (invocation.shape === "single") return { body: { result: scored.results[0] }, summary };
      return { body: { results: scored.results, timing: scored.timing }, summary };
    }
    case "systemone": {
      const response = await answerSystemOne(engine, invocation.request, {
        signal,
        prepared: prepared.prepared,
      });
      const summary = summarise([], 0, performance.now() - started);
      summary.questions = Object.keys(invocation.request.questions).length;
      summary.input_tokens = response.usage.input_tokens;
      summary.evaluated_tokens = response.usage.evaluated_tokens ?? 0;
      summary.cached_tokens = response.usage.cached_tokens ?? 0;
      return {
        body: adapterBuild === undefined ? response : { ...response, adapter_build: adapterBuild },
        summary,
      };
    }
    case "chat": {
      const result = await engine.complete(invocation.request, { signal });
      // The served model, named as on every other endpoint (not the name the caller asked for).
      const model = modelNameOf(engine.identity);
      const summary = summarise([], 0, performance.now() - started);
      summary.input_tokens = result.usage.prompt_tokens;
      summary.evaluated_tokens = result.usage.prompt_tokens;
      summary.output_tokens = result.usage.completion_tokens;
      return { body: chatCompletionResponse(result, model), summary };
    }
  }
}

function summarise(results: readonly DecisionResult[], queueMs: number, engineMs: number): InvocationSummary {
  const summary: InvocationSummary = {
    questions: results.length,
    input_tokens: 0,
    evaluated_tokens: 0,
    cached_tokens: 0,
    output_tokens: 0,
    queue_ms: round(queueMs),
    engine_ms: round(engineMs),
  };
  for (const result of results) {
    summary.input_tokens += result.input_tokens;
    summary.evaluated_tokens += result.evaluated_tokens;
    summary.cached_tokens += result.cached_tokens;
  }
  return summary;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
