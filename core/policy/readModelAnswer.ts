import type { PolicyQuestion } from "./types.js";

/** How far a returned distribution's sum may stray from 1 (rounding in JSON) before it is refused. */
const SUM_TOLERANCE = 1e-3;

/**
 * Reads a model answer as a distribution over the question's labels, in label order (noul:
 * `[P(yes), P(no)]`). Checks what `applyPolicy` relies on: the answer's type is the question's, its
 * keys are exactly the question's labels, every probability is finite in [0, 1] and they sum to
 * 1 (within rounding; then renormalised).
 *
 * @returns the distribution, or the reason the answer cannot be used
 */
export function readModelAnswer(
  question: PolicyQuestion,
  answer: unknown,
): { ok: true; probabilities: number[] } | { ok: false; reason: string } {
  if (typeof answer !== "object" || answer === null) return { ok: false, reason: "no answer" };
  const given = answer as { type?: unknown; probabilities?: unknown; noul?: unknown };
  if (given.type !== question.type) {
    return { ok: false, reason: `answer type ${JSON.stringify(given.type)}, expected ${question.type}` };
  }
  if (question.type === "noul") {
    const yes = given.noul;
    if (typeof yes !== "number" || !(yes >= 0 && yes <= 1)) {
      return { ok: false, reason: "noul is not a probability in [0, 1]" };
    }
    return { ok: true, probabilities: [yes, 1 - yes] };
  }
  const table = given.probabilities;
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    return { ok: false, reason: "probabilities is not an object" };
  }
  const keys = Object.keys(table);
  const missing = question.labels.filter((label) => !Object.hasOwn(table, label));
  const extra = keys.filter((key) => !question.labels.includes(key));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 ? `missing ${missing.join(", ")}` : "",
      extra.length > 0 ? `unexpected ${extra.join(", ")}` : "",
    ];
    return {
      ok: false,
      reason: `probabilities do not match the labels (${parts.filter(Boolean).join("; ")})`,
    };
  }
  const probabilities = question.labels.map((label) => (table as Record<string, unknown>)[label]);
  if (!probabilities.every((p): p is number => typeof p === "number" && p >= 0 && p <= 1)) {
    return { ok: false, reason: "a probability is not a number in [0, 1]" };
  }
  const sum = probabilities.reduce((total, p) => total + p, 0);
  if (!(Math.abs(sum - 1) <= SUM_TOLERANCE)) {
    return { ok: false, reason: `probabilities sum to ${sum}, not 1` };
  }
  return { ok: true, probabilities: probabilities.map((p) => p / sum) };
}
