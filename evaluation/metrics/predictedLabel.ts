import type { Forecast, TieBreak } from "./types.js";

/**
 * Index of the predicted label: the most probable one; ties go to the alphabetically smallest
 * label (JevBench's `argmax_label`) or to the one offered first (a policy's choice).
 *
 * Alphabetical order is JavaScript's string order (UTF-16 code units), which equals Python's
 * `sorted` for every label outside the astral planes.
 *
 * @returns -1 for a forecast without labels
 */
export function predictedIndex(forecast: Forecast, ties: TieBreak = "alphabetical"): number {
  let best = -1;
  for (const [index, probability] of forecast.probabilities.entries()) {
    if (best === -1) {
      best = index;
      continue;
    }
    const top = forecast.probabilities[best] ?? Number.NEGATIVE_INFINITY;
    if (probability > top) best = index;
    else if (probability === top && ties === "alphabetical") {
      if ((forecast.labels[index] ?? "") < (forecast.labels[best] ?? "")) best = index;
    }
  }
  return best;
}

/**
 * The predicted label of a forecast (see {@link predictedIndex}).
 * @example predictedLabel({ labels: ["b", "a"], probabilities: [0.5, 0.5], expected: "a" }) → "a"
 */
export function predictedLabel(forecast: Forecast, ties: TieBreak = "alphabetical"): string | undefined {
  return forecast.labels[predictedIndex(forecast, ties)];
}
