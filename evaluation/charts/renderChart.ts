/** One line of a chart: a name, a colour and its points. */
export interface ChartSeries {
  name: string;
  colour: string;
  points: ReadonlyArray<{ x: number; y: number }>;
}

/** Options of {@link renderChart}. */
export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Default 720 × 420. */
  width?: number;
  height?: number;
}

/**
 * A line chart as a standalone SVG document (no script, no external fonts): linear axes from 0,
 * five ticks each, one polyline with dots per series, and a legend.
 */
export function renderChart(series: readonly ChartSeries[], options: ChartOptions): string {
  const width = options.width ?? 720;
  const height = options.height ?? 420;
  const margin = { left: 80, right: 190, top: 50, bottom: 60 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const all = series.flatMap((line) => line.points);
  const xMax = niceCeiling(Math.max(1, ...all.map((point) => point.x)));
  const yMax = niceCeiling(Math.max(1, ...all.map((point) => point.y)));
  const toX = (x: number): number => margin.left + (x / xMax) * plotWidth;
  const toY = (y: number): number => margin.top + plotHeight - (y / yMax) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2 - margin.right / 2}" y="28" text-anchor="middle" font-size="15">${escapeXml(options.title)}</text>`,
  ];
  for (let tick = 0; tick <= 5; tick += 1) {
    const xValue = (xMax * tick) / 5;
    const yValue = (yMax * tick) / 5;
    parts.push(
      `<line x1="${toX(xValue)}" y1="${margin.top}" x2="${toX(xValue)}" y2="${margin.top + plotHeight}" stroke="#eee"/>`,
      `<text x="${toX(xValue)}" y="${margin.top + plotHeight + 18}" text-anchor="middle">${formatTick(xValue)}</text>`,
      `<line x1="${margin.left}" y1="${toY(yValue)}" x2="${margin.left + plotWidth}" y2="${toY(yValue)}" stroke="#eee"/>`,
      `<text x="${margin.left - 8}" y="${toY(yValue) + 4}" text-anchor="end">${formatTick(yValue)}</text>`,
    );
  }
  parts.push(
    `<rect x="${margin.left}" y="${margin.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#444"/>`,
    `<text x="${margin.left + plotWidth / 2}" y="${height - 18}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    `<text transform="translate(22 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel)}</text>`,
  );
  for (const [index, line] of series.entries()) {
    const points = [...line.points].sort((a, b) => a.x - b.x);
    const path = points.map((point) => `${toX(point.x).toFixed(1)},${toY(point.y).toFixed(1)}`).join(" ");
    parts.push(`<polyline points="${path}" fill="none" stroke="${line.colour}" stroke-width="2"/>`);
    for (const point of points) {
      parts.push(
        `<circle cx="${toX(point.x).toFixed(1)}" cy="${toY(point.y).toFixed(1)}" r="3.5" fill="${line.colour}"/>`,
      );
    }
    const legendY = margin.top + 14 + index * 20;
    parts.push(
      `<line x1="${width - margin.right + 16}" y1="${legendY - 4}" x2="${width - margin.right + 40}" y2="${legendY - 4}" stroke="${line.colour}" stroke-width="3"/>`,
      `<text x="${width - margin.right + 46}" y="${legendY}">${escapeXml(line.name)}</text>`,
    );
  }
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** The smallest of 1, 2, 2.5, 5 × 10^k that is at least `value`. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

function formatTick(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
