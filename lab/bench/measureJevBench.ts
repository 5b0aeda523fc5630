import { answerSystemOne } from "../../adapter/engine/systemOne/SystemOne.js";
import type { SystemOneAnswer, SystemOneResponse } from "../../adapter/engine/systemOne/systemOneTypes.js";
import { type JevBenchCase, jevBenchToSystemOne } from "../../evaluation/jevbench/loadJevBench.js";
import { quantile, sum, timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext, Figure } from "./BenchContext.js";
import { postJson } from "./postJson.js";

/**
 * P6: JevBench cases one after another through the adapter (HTTP System One when the server is
 * up, else in-process), as a client would send them: valid answers, latency, input tokens, and
 * accuracy as JevBench scores it (argmax, ties to the alphabetically smallest label).
 */
export async function measureJevBench(
  context: BenchContext,
  cases: readonly JevBenchCase[],
): Promise<Figure> {
  const latencies: number[] = [];
  const inputTokens: number[] = [];
  let valid = 0;
  let correct = 0;
  const failures: string[] = [];
  for (const [index, testCase] of cases.entries()) {
    const request = jevBenchToSystemOne(testCase);
    const { value, ms } = await timed(async () => {
      if (context.httpUrl === undefined)
        return { status: 200, body: await answerSystemOne(context.scorer, request) };
      return postJson(`${context.httpUrl}/v1/systemone`, request);
    });
    latencies.push(ms);
    const distribution = value.status === 200 ? distributionOf(value.body, testCase) : undefined;
    if (distribution === undefined) {
      failures.push(`${testCase.id}: HTTP ${value.status}`);
    } else {
      valid += 1;
      inputTokens.push((value.body as SystemOneResponse).usage.input_tokens);
      if (argmaxLabel(distribution) === String(testCase.expected)) correct += 1;
    }
    if ((index + 1) % 10 === 0 || index + 1 === cases.length) {
      context.log(`P6 ${index + 1}/${cases.length} cases, last ${ms.toFixed(0)} ms`);
    }
  }
  return {
    label: `JevBench cases serially through the adapter (${context.httpUrl === undefined ? "in-process" : "HTTP"})`,
    value: valid,
    goal: `${cases.length}/${cases.length} valid`,
    met: valid === cases.length,
    details: {
      cases: cases.length,
      valid,
      p50_ms: quantile(latencies, 0.5),
      p95_ms: quantile(latencies, 0.95),
      mean_ms: sum(latencies) / latencies.length,
      mean_input_tokens: sum(inputTokens) / Math.max(1, inputTokens.length),
      correct,
      accuracy_note: "argmax vs expected label; meaningless on a generated (random-weight) model",
      failures,
    },
  };
}

/** The answer as a distribution over the case's labels, or undefined when it is not a valid one. */
function distributionOf(body: unknown, testCase: JevBenchCase): Record<string, number> | undefined {
  const answer = (body as SystemOneResponse | undefined)?.answers?.q as SystemOneAnswer | undefined;
  if (answer === undefined) return undefined;
  const distribution: Record<string, number> =
    answer.type === "noul" ? { yes: answer.noul, no: 1 - answer.noul } : answer.probabilities;
  const keys = Object.keys(distribution).sort();
  const expected = [...testCase.labels].sort();
  if (keys.length !== expected.length || keys.some((key, index) => key !== expected[index])) return undefined;
  const values = Object.values(distribution);
  if (!values.every((p) => Number.isFinite(p) && p >= 0 && p <= 1)) return undefined;
  return Math.abs(sum(values) - 1) <= 1e-3 ? distribution : undefined;
}

function argmaxLabel(distribution: Record<string, number>): string {
  const entries = Object.entries(distribution).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let best = entries[0]?.[0] ?? "";
  let bestValue = -1;
  for (const [label, value] of entries) {
    if (value > bestValue) {
      best = label;
      bestValue = value;
    }
  }
  return best;
}
