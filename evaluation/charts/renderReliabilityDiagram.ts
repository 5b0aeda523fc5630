import type { ReliabilityBin } from "../metrics/types.js";
import { type ChartSeries, renderChart } from "./renderChart.js";

/** One set of reliability bins to draw (e.g. before or after calibration). */
export interface ReliabilitySeries {
  name: string;
  /** Stroke colour, any SVG colour. */
  colour: string;
  bins: readonly ReliabilityBin[];
}

/**
 * A reliability diagram as a standalone SVG document (drawn with the bench's `renderChart`): per
 * series, each non-empty bin's accuracy against its mean confidence, and the diagonal of perfect
 * calibration. Points below the diagonal are over-confident.
 *
 * @param title the chart's title. Default "Reliability diagram (10 bins)".
 */
export function renderReliabilityDiagram(
  series: readonly ReliabilitySeries[],
  title = "Reliability diagram (10 bins)",
): string {
  const lines: ChartSeries[] = [
    {
      name: "perfectly calibrated",
      colour: "#999",
      points: [
        { x: 0, y: 0 },
        { x: 1, y: 1 },
      ],
    },
    ...series.map((one) => ({
      name: one.name,
      colour: one.colour,
      points: one.bins.flatMap((bin) =>
        bin.mean_confidence === null || bin.accuracy === null
          ? []
          : [{ x: bin.mean_confidence, y: bin.accuracy }],
      ),
    })),
  ];
  return renderChart(lines, { title, xLabel: "mean confidence in bin", yLabel: "accuracy in bin" });
}
