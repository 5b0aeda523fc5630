import type { CoveragePoint } from "../metrics/coverageErrorCurve.js";
import { type ChartSeries, renderChart } from "./renderChart.js";

/** Options of {@link renderCoverageErrorCurve}. */
export interface CoverageChartOptions {
  /** Default "Coverage and error of automated decisions". */
  title?: string;
  /** Drawn as a horizontal line when given. */
  errorBudget?: number;
  /** Drawn as a vertical line when given (the chosen threshold). */
  threshold?: number;
}

/**
 * A coverage/error curve as a standalone SVG document (drawn with the bench's `renderChart`):
 * against the probability threshold, the share of decisions automated (those at or above it) and
 * the error rate among them, with the error budget and the chosen threshold when given.
 */
export function renderCoverageErrorCurve(
  curve: readonly CoveragePoint[],
  options: CoverageChartOptions = {},
): string {
  const series: ChartSeries[] = [
    {
      name: "coverage",
      colour: "#1f77b4",
      points: curve.map((point) => ({ x: point.threshold, y: point.coverage })),
    },
    {
      name: "error rate",
      colour: "#d62728",
      points: curve.map((point) => ({ x: point.threshold, y: point.error_rate })),
    },
  ];
  if (options.errorBudget !== undefined) {
    series.push({
      name: `error budget ${options.errorBudget}`,
      colour: "#ff7f0e",
      points: [
        { x: 0, y: options.errorBudget },
        { x: 1, y: options.errorBudget },
      ],
    });
  }
  if (options.threshold !== undefined) {
    series.push({
      name: `threshold ${options.threshold}`,
      colour: "#2ca02c",
      points: [
        { x: options.threshold, y: 0 },
        { x: options.threshold, y: 1 },
      ],
    });
  }
  return renderChart(series, {
    title: options.title ?? "Coverage and error of automated decisions",
    xLabel: "probability threshold",
    yLabel: "share",
  });
}
