import type { TimelinePoint } from "../SimulationResult.js";

/** Options of {@link renderTimelineSvg}. */
export interface TimelineSvgOptions {
  /** The chart's title. */
  title: string;
  /** Default 800 × 360. */
  width?: number;
  height?: number;
}

/**
 * An SVG chart of a simulation's timeline: instances InService and busy (left axis) and the bulk
 * backlog (right axis) over the hours. Plain SVG, no script, fixed fonts: safe to embed in docs.
 */
export function renderTimelineSvg(timeline: readonly TimelinePoint[], options: TimelineSvgOptions): string {
  const width = options.width ?? 800;
  const height = options.height ?? 360;
  const left = 56;
  const right = 72;
  const top = 36;
  const bottom = 40;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const hours = Math.max(1e-9, ...timeline.map((p) => p.t / 3600));
  const maxInstances = Math.max(1, ...timeline.map((p) => Math.max(p.billed, p.in_service)));
  const maxBacklog = Math.max(1, ...timeline.map((p) => p.backlog));
  const x = (t: number) => left + (t / 3600 / hours) * plotW;
  const yInstances = (v: number) => top + plotH - (v / maxInstances) * plotH;
  const yBacklog = (v: number) => top + plotH - (v / maxBacklog) * plotH;
  const path = (value: (p: TimelinePoint) => number, y: (v: number) => number) =>
    timeline.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.t).toFixed(1)},${y(value(p)).toFixed(1)}`).join(" ");
  const ticks = (max: number, count: number) =>
    Array.from({ length: count + 1 }, (_, i) => (max * i) / count);
  const text = (tx: number, ty: number, body: string, anchor = "middle") =>
    `<text x="${tx.toFixed(1)}" y="${ty.toFixed(1)}" text-anchor="${anchor}">${escapeXml(body)}</text>`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11" role="img">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    text(width / 2, 18, options.title),
    `<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
    ...ticks(hours, 5).map((h) => text(x(h * 3600), top + plotH + 16, formatHours(h))),
    text(left + plotW / 2, height - 6, "hours since the upload"),
    ...ticks(maxInstances, 4).map((v) => text(left - 6, yInstances(v) + 4, String(Math.round(v)), "end")),
    ...ticks(maxBacklog, 4).map((v) => text(left + plotW + 6, yBacklog(v) + 4, formatCount(v), "start")),
    `<path d="${path((p) => p.backlog, yBacklog)}" fill="none" stroke="#d62728" stroke-width="1.5"/>`,
    `<path d="${path((p) => p.billed, yInstances)}" fill="none" stroke="#aaaaaa" stroke-width="1.5" stroke-dasharray="4 3"/>`,
    `<path d="${path((p) => p.in_service, yInstances)}" fill="none" stroke="#1f77b4" stroke-width="2"/>`,
    `<path d="${path((p) => p.busy, yInstances)}" fill="none" stroke="#2ca02c" stroke-width="1.5"/>`,
    legend(left + 8, top + 14, "#1f77b4", "instances InService (left)"),
    legend(left + 8, top + 28, "#aaaaaa", "instances paid (left)"),
    legend(left + 8, top + 42, "#2ca02c", "instances busy (left)"),
    legend(left + 8, top + 56, "#d62728", "bulk backlog, messages (right)"),
    "</svg>",
  ];
  return `${parts.join("\n")}\n`;
}

function legend(lx: number, ly: number, color: string, label: string): string {
  return `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="${color}" stroke-width="2"/><text x="${lx + 24}" y="${ly}">${escapeXml(label)}</text>`;
}

function formatHours(h: number): string {
  return h >= 10 ? h.toFixed(0) : h.toFixed(1);
}

function formatCount(v: number): string {
  if (v >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(0)}k`;
  return v.toFixed(0);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
