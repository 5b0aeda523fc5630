import type { PolicyStats, QuestionStats } from "../../contract/outcome/reviewViews.js";
import type { StoredOutcome } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";

/** How many confidence bins the histogram and the reliability diagram use. */
export const CONFIDENCE_BINS = 10;

/**
 * The pictures of a policy's review page, from its outcomes: the share sent to review per day,
 * the model's confidence per question, and a reliability diagram from the items people labelled.
 * Labels from fallbacks alone lean towards low confidence (only those reach a person), which the
 * page says beside the diagram.
 */
export function summarizePolicyStats(policy: Policy, outcomes: readonly StoredOutcome[]): PolicyStats {
  const days = new Map<string, { total: number; fallback: number }>();
  for (const outcome of outcomes) {
    const day = outcome.created_at.slice(0, 10);
    const entry = days.get(day) ?? { total: 0, fallback: 0 };
    entry.total += 1;
    if (wentToReview(outcome)) entry.fallback += 1;
    days.set(day, entry);
  }
  const questions = policy.questions.map((question): QuestionStats => {
    const confidence = new Array<number>(CONFIDENCE_BINS).fill(0);
    const bins = Array.from({ length: CONFIDENCE_BINS }, () => ({ count: 0, predictedSum: 0, agreed: 0 }));
    let labelled = 0;
    for (const outcome of outcomes) {
      const answer = outcome.answers?.[question.id];
      if (answer === undefined) continue;
      const top = topLabel(answer.distribution);
      if (top === undefined) continue;
      const bin = Math.min(CONFIDENCE_BINS - 1, Math.floor(top.p * CONFIDENCE_BINS));
      confidence[bin] = (confidence[bin] ?? 0) + 1;
      const human =
        outcome.review?.answers[question.id] ?? (answer.source === "human" ? answer.answer : undefined);
      if (human === undefined) continue;
      labelled += 1;
      const slot = bins[bin];
      if (slot === undefined) continue;
      slot.count += 1;
      slot.predictedSum += top.p;
      if (String(human) === top.label) slot.agreed += 1;
    }
    return {
      id: question.id,
      threshold: question.threshold,
      confidence,
      reliability: bins.map((slot) => ({
        count: slot.count,
        predicted: slot.count === 0 ? 0 : slot.predictedSum / slot.count,
        observed: slot.count === 0 ? 0 : slot.agreed / slot.count,
      })),
      labelled,
    };
  });
  return {
    policy: policy.name,
    outcomes: outcomes.length,
    fallbackByDay: [...days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, counts]) => ({ day, ...counts })),
    questions,
  };
}

function wentToReview(outcome: StoredOutcome): boolean {
  return (
    outcome.status === "fallback" ||
    outcome.review?.previous_status === "fallback" ||
    outcome.status === "reviewed"
  );
}

function topLabel(distribution: Readonly<Record<string, number>>): { label: string; p: number } | undefined {
  let best: { label: string; p: number } | undefined;
  for (const [label, p] of Object.entries(distribution)) {
    if (Number.isFinite(p) && (best === undefined || p > best.p)) best = { label, p };
  }
  return best;
}
