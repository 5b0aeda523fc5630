import type { DecisionEngine } from "../engine/types.js";
import { StartupError } from "./errors.js";

/** The tiny decision scored once at start: `/ping` answers 200 only after it succeeded. */
export const PROBE_BATCH = {
  state: "Readiness probe of the decision server.",
  questions: [
    {
      id: "probe",
      question: "Is this a readiness probe?",
      options: [
        { id: "yes", description: "Yes" },
        { id: "no", description: "No" },
      ],
    },
  ],
} as const;

/**
 * Scores {@link PROBE_BATCH} and checks the answer is a distribution: one result, two finite
 * probabilities in [0, 1] summing to 1 (±1e-3).
 * @returns the probe's duration in milliseconds.
 * @throws StartupError when scoring fails or its answer is not a distribution.
 */
export async function probeEngine(engine: DecisionEngine, signal?: AbortSignal): Promise<number> {
  const started = performance.now();
  let probabilities: readonly number[] | undefined;
  try {
    const scored = await engine.scoreBatch(
      {
        state: PROBE_BATCH.state,
        questions: PROBE_BATCH.questions.map((q) => ({ ...q, options: [...q.options] })),
      },
      signal === undefined ? {} : { signal },
    );
    probabilities = scored.results[0]?.probabilities;
  } catch (error) {
    throw new StartupError("the probe decision failed", { cause: error });
  }
  const valid =
    probabilities !== undefined &&
    probabilities.length === 2 &&
    probabilities.every((p) => Number.isFinite(p) && p >= 0 && p <= 1) &&
    Math.abs(probabilities.reduce((sum, p) => sum + p, 0) - 1) <= 1e-3;
  if (!valid) {
    throw new StartupError(
      `the probe decision returned no valid distribution: ${JSON.stringify(probabilities ?? null)}`,
    );
  }
  return performance.now() - started;
}
