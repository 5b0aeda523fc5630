import { answerSystemOne } from "../../adapter/engine/systemOne/SystemOne.js";
import type { SystemOneRequest } from "../../adapter/engine/systemOne/systemOneTypes.js";
import type { DecisionEngine } from "../../adapter/engine/types.js";
import { DEFAULT_LAYOUT, type LayoutChoice } from "../layoutChoices.js";
import { predictedLabel } from "../metrics/predictedLabel.js";
import { jevBenchToSystemOne } from "./loadJevBench.js";
import { readJevBenchAnswer } from "./readJevBenchAnswer.js";
import type { JevBenchItem, JevBenchRecord } from "./types.js";

/** Options of {@link runJevBench}. */
export interface RunJevBenchOptions {
  /** Stops the run: the case in flight is aborted and the abort error thrown. */
  signal?: AbortSignal;
  /**
   * The prompt layout every case's question is scored in (`auto`: the engine picks per case).
   * Default `direct-options-v1`, the engine's default.
   */
  layout?: LayoutChoice;
  /** Called after each case. Default none. */
  onRecord?: (record: JevBenchRecord, done: number, total: number) => void;
}

/**
 * Runs JevBench cases one after another through the engine in-process (`answerSystemOne`, as
 * the adapter answers `POST /v1/systemone`), as JevBench runs them: each answer checked as a
 * distribution over exactly the case's labels, the argmax (ties to the alphabetically smallest
 * label) compared with the expected label, the wall time of each case measured. Every question is
 * asked in `options.layout`; each record keeps the `prompt_version` the engine answered with.
 *
 * An engine error on a case (a prompt too long for the context, say) makes that case invalid,
 * recorded with its message, and the run goes on — JevBench counts it as wrong. An abort stops it.
 */
export async function runJevBench(
  engine: DecisionEngine,
  items: readonly JevBenchItem[],
  options: RunJevBenchOptions = {},
): Promise<JevBenchRecord[]> {
  const layout = options.layout ?? DEFAULT_LAYOUT;
  const records: JevBenchRecord[] = [];
  for (const item of items) {
    const expected = String(item.expected);
    const base = { id: item.id, file: item.file, family: item.family, group: item.group, expected };
    const started = performance.now();
    let record: JevBenchRecord;
    try {
      const response = await answerSystemOne(engine, withLayout(jevBenchToSystemOne(item), layout), {
        signal: options.signal,
      });
      const latency = performance.now() - started;
      const answer = response.answers.q;
      const promptVersion =
        answer?.prompt_version === undefined ? {} : { prompt_version: answer.prompt_version };
      const read = readJevBenchAnswer(answer, item.labels);
      if (read.ok) {
        const labels = Object.keys(read.distribution);
        const predicted = predictedLabel({
          labels,
          probabilities: Object.values(read.distribution),
          expected,
        });
        record = {
          ...base,
          valid: true,
          predicted,
          correct: predicted === expected,
          probabilities: read.distribution,
          latency_ms: latency,
          input_tokens: response.usage.input_tokens,
          ...promptVersion,
        };
      } else {
        record = {
          ...base,
          valid: false,
          error: read.reason,
          correct: false,
          latency_ms: latency,
          ...promptVersion,
        };
      }
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      record = {
        ...base,
        valid: false,
        error: message,
        correct: false,
        latency_ms: performance.now() - started,
      };
    }
    records.push(record);
    options.onRecord?.(record, records.length, items.length);
  }
  return records;
}

/** The request with every question asked in `layout`. */
function withLayout(request: SystemOneRequest, layout: LayoutChoice): SystemOneRequest {
  const questions = Object.fromEntries(
    Object.entries(request.questions).map(([id, question]) => [id, { ...question, layout }]),
  );
  return { ...request, questions };
}
