import type { DriftReport, OptionShare, QuestionDrift } from "../../contract/outcome/driftReport.js";
import type { DriftOptions } from "./DriftOptions.js";
import { type DriftWindows, inRange, type TimeRange } from "./driftWindows.js";
import { flagOptions } from "./flagOptions.js";
import { jensenShannon, jensenShannonNoise } from "./jensenShannon.js";
import type { DriftObservation } from "./observeOutcome.js";

/** A question as the policy declares it, so its options show even when never chosen. */
export interface DeclaredQuestion {
  id: string;
  options: readonly string[];
}

/**
 * Compares the answers decided in `windows.window` with those of `windows.baseline`, per question:
 * the answer mix and the confidence histogram, each as a Jensen–Shannon divergence with additive
 * smoothing, the larger being the question's distance; the options that moved; rare and confused
 * options. Observations outside both ranges are ignored. Pure: the caller reads the outcomes.
 *
 * @param declared the policy's questions and options (the report lists them in this order, and
 *   options never chosen still count); questions only seen in the observations follow, by name.
 */
export function measureDrift(
  observations: readonly DriftObservation[],
  windows: DriftWindows,
  options: DriftOptions,
  declared: readonly DeclaredQuestion[] = [],
): DriftReport {
  const byQuestion = new Map<string, { baseline: DriftObservation[]; window: DriftObservation[] }>();
  for (const question of declared) byQuestion.set(question.id, { baseline: [], window: [] });
  const seen = [...new Set(observations.map((observation) => observation.question))].sort();
  for (const question of seen)
    if (!byQuestion.has(question)) byQuestion.set(question, { baseline: [], window: [] });
  for (const observation of observations) {
    const sides = byQuestion.get(observation.question);
    if (sides === undefined) continue;
    if (inRange(windows.window, observation.at)) sides.window.push(observation);
    else if (inRange(windows.baseline, observation.at)) sides.baseline.push(observation);
  }
  const questions = [...byQuestion.entries()].map(([question, sides]) =>
    measureQuestion(
      question,
      sides,
      declared.find((candidate) => candidate.id === question)?.options ?? [],
      options,
    ),
  );
  const counted = questions.filter((question) => question.enough && question.distance !== null);
  return {
    window: isoRange(windows.window),
    baseline: isoRange(windows.baseline),
    threshold: options.threshold,
    distance: counted.length === 0 ? null : Math.max(...counted.map((question) => question.distance ?? 0)),
    over_threshold: questions.some((question) => question.over_threshold),
    questions,
  };
}

function measureQuestion(
  question: string,
  sides: { baseline: DriftObservation[]; window: DriftObservation[] },
  declaredOptions: readonly string[],
  options: DriftOptions,
): QuestionDrift {
  const labels = new Set<string>(declaredOptions);
  for (const observation of [...sides.baseline, ...sides.window]) {
    labels.add(observation.answer);
    for (const label of observation.labels) labels.add(label);
  }
  const optionList = [...labels];
  const answerCounts = (side: DriftObservation[]) =>
    optionList.map((option) => side.filter((observation) => observation.answer === option).length);
  const binCounts = (side: DriftObservation[]) => {
    const bins = new Array<number>(options.confidenceBins).fill(0);
    for (const observation of side) {
      const bin = Math.min(
        options.confidenceBins - 1,
        Math.max(0, Math.floor(observation.confidence * options.confidenceBins)),
      );
      bins[bin] = (bins[bin] ?? 0) + 1;
    }
    return bins;
  };
  const answersBefore = answerCounts(sides.baseline);
  const answersNow = answerCounts(sides.window);
  const binsBefore = binCounts(sides.baseline);
  const binsNow = binCounts(sides.window);
  const counts = { baseline: sides.baseline.length, window: sides.window.length };
  const bothSides = counts.baseline > 0 && counts.window > 0;
  const answerDistance = bothSides ? jensenShannon(answersBefore, answersNow, options.smoothing) : null;
  const confidenceDistance = bothSides ? jensenShannon(binsBefore, binsNow, options.smoothing) : null;
  const distance =
    answerDistance === null || confidenceDistance === null
      ? null
      : Math.max(answerDistance, confidenceDistance);
  const enough = counts.baseline >= options.minOutcomes && counts.window >= options.minOutcomes;
  const shares = optionList.map((option, index): OptionShare => {
    const baseline = share(answersBefore[index] ?? 0, counts.baseline);
    const window = share(answersNow[index] ?? 0, counts.window);
    return { option, baseline, window, change: window - baseline };
  });
  return {
    question,
    counts,
    enough,
    distance,
    answer_distance: answerDistance,
    confidence_distance: confidenceDistance,
    noise: bothSides
      ? Math.max(jensenShannonNoise(answersBefore, answersNow), jensenShannonNoise(binsBefore, binsNow))
      : null,
    over_threshold: enough && distance !== null && distance > options.threshold,
    answers: shares,
    moved: bothSides
      ? shares
          .filter((entry) => Math.abs(entry.change) >= options.movedShare)
          .sort((a, b) => Math.abs(b.change) - Math.abs(a.change))
      : [],
    confidence: {
      baseline: binsBefore.map((count) => share(count, counts.baseline)),
      window: binsNow.map((count) => share(count, counts.window)),
    },
    flags: flagOptions(optionList, [...sides.baseline, ...sides.window], options),
  };
}

function share(count: number, total: number): number {
  return total === 0 ? 0 : count / total;
}

function isoRange(range: TimeRange): { since: string; until: string } {
  return { since: new Date(range.since).toISOString(), until: new Date(range.until).toISOString() };
}
