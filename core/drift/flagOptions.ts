import type { OptionFlag } from "../../contract/outcome/driftReport.js";
import type { DriftOptions } from "./DriftOptions.js";
import type { DriftObservation } from "./observeOutcome.js";

/**
 * Flags a question's options from its observations (window and baseline together): rarely chosen
 * ones (only once the answers number at least `minOutcomes`, so a quiet hour flags nothing), and
 * ones reviewers keep replacing by the same other option (at least `minReviews` reviewed items).
 * Rare options come first, in the order given, then confused ones by share.
 */
export function flagOptions(
  options: readonly string[],
  observations: readonly DriftObservation[],
  settings: Pick<DriftOptions, "rareShare" | "confusedShare" | "minReviews" | "minOutcomes">,
): OptionFlag[] {
  const flags: OptionFlag[] = [];
  const chosen = new Map<string, number>();
  for (const observation of observations)
    chosen.set(observation.answer, (chosen.get(observation.answer) ?? 0) + 1);
  if (observations.length >= settings.minOutcomes) {
    for (const option of options) {
      const count = chosen.get(option) ?? 0;
      const share = count / observations.length;
      if (share < settings.rareShare) flags.push({ kind: "rare", option, share, count });
    }
  }
  const reviewed = new Map<string, Map<string, number>>();
  for (const observation of observations) {
    if (observation.reviewed === undefined) continue;
    const answers = reviewed.get(observation.answer) ?? new Map<string, number>();
    answers.set(observation.reviewed, (answers.get(observation.reviewed) ?? 0) + 1);
    reviewed.set(observation.answer, answers);
  }
  const confused: OptionFlag[] = [];
  for (const [option, answers] of reviewed) {
    const reviews = [...answers.values()].reduce((total, count) => total + count, 0);
    if (reviews < settings.minReviews) continue;
    let best: { with: string; count: number } | undefined;
    for (const [answer, count] of answers) {
      if (answer !== option && (best === undefined || count > best.count)) best = { with: answer, count };
    }
    if (best === undefined) continue;
    const share = best.count / reviews;
    if (share >= settings.confusedShare)
      confused.push({ kind: "confused", option, with: best.with, share, reviews });
  }
  confused.sort((a, b) => b.share - a.share);
  return [...flags, ...confused];
}
