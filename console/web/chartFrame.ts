/**
 * What every picture of the console shares: a titled chart (`.chart`, its `.chart-title` saying
 * what it shows), and for SVG ones a frame drawn at its own pixel size (never stretched, so the
 * type stays the page's size) with both axes titled with their unit (`[data-axis]`) and ticks
 * that do not overlap.
 */
import { html } from "htm/preact";
import type { ComponentChildren } from "preact";

/** The SVG frame: its size and the margins around the plot (pixels). */
export const FRAME = { width: 360, height: 200, left: 52, right: 14, top: 16, bottom: 46 } as const;
/** The plot's size inside the frame. */
export const PLOT = {
  width: FRAME.width - FRAME.left - FRAME.right,
  height: FRAME.height - FRAME.top - FRAME.bottom,
};

/** The x coordinate of a fraction (0–1) of the plot's width. */
export const xAt = (fraction: number): number => FRAME.left + fraction * PLOT.width;
/** The y coordinate of a fraction (0–1) of the plot's height, from the bottom. */
export const yAt = (fraction: number): number => FRAME.top + PLOT.height - fraction * PLOT.height;

/** A tick: where along its axis (0–1) and what it reads. */
export interface Tick {
  at: number;
  label: string;
}

/** One series of a legend: its name and colour. */
export interface LegendEntry {
  name: string;
  colour: string;
}

/** A picture with its title (what it shows) and, when it draws several series, their legend. */
export function Chart({
  title,
  legend,
  kind,
  children,
}: {
  title: string;
  legend?: readonly LegendEntry[];
  /** A name for tests and styles (`data-chart`). */
  kind: string;
  children: ComponentChildren;
}) {
  return html`<div class="chart" data-chart=${kind}>
    <p class="chart-title">${title}${
      legend === undefined
        ? null
        : html`<span class="legend">${legend.map(
            (entry) =>
              html` <span class="legend-entry"><span class="swatch" style=${{ background: entry.colour }}></span>${entry.name}</span>`,
          )}</span>`
    }</p>
    ${children}
  </div>`;
}

/** An SVG picture in the frame, at its own size; `label` is what a screen reader hears. */
export function Frame({ label, children }: { label: string; children: ComponentChildren }) {
  return html`<svg class="frame" width=${FRAME.width} height=${FRAME.height} viewBox="0 0 ${FRAME.width} ${FRAME.height}" role="img" aria-label=${label}>
    ${children}
  </svg>`;
}

/** Both axes with their ticks and titles (each title says the unit, e.g. "share of answers (%)"). */
export function Axes({
  xTitle,
  yTitle,
  xTicks,
  yTicks,
}: {
  xTitle: string;
  yTitle: string;
  xTicks: readonly Tick[];
  yTicks: readonly Tick[];
}) {
  const bottom = yAt(0);
  return html`<g class="axes">
    <line x1=${xAt(0)} y1=${bottom} x2=${xAt(1)} y2=${bottom} stroke="#8a93a3" />
    <line x1=${xAt(0)} y1=${yAt(0)} x2=${xAt(0)} y2=${yAt(1)} stroke="#8a93a3" />
    ${xTicks.map(
      (
        tick,
      ) => html`<line x1=${xAt(tick.at)} x2=${xAt(tick.at)} y1=${bottom} y2=${bottom + 4} stroke="#8a93a3" />
        <text class="tick" x=${xAt(tick.at)} y=${bottom + 16} text-anchor=${anchorOf(tick.at)}>${tick.label}</text>`,
    )}
    ${yTicks.map(
      (
        tick,
      ) => html`<line x1=${xAt(0) - 4} x2=${xAt(0)} y1=${yAt(tick.at)} y2=${yAt(tick.at)} stroke="#8a93a3" />
        <text class="tick" x=${xAt(0) - 6} y=${yAt(tick.at) + 4} text-anchor="end">${tick.label}</text>`,
    )}
    <text class="axis-title" data-axis="x" x=${xAt(0.5)} y=${FRAME.height - 6} text-anchor="middle">${xTitle}</text>
    <text class="axis-title" data-axis="y" transform=${`translate(13 ${yAt(0.5)}) rotate(-90)`} text-anchor="middle">${yTitle}</text>
  </g>`;
}

/** A tick label at an end of the axis stays inside the frame. */
function anchorOf(at: number): "start" | "middle" | "end" {
  if (at <= 0.02) return "start";
  if (at >= 0.98) return "end";
  return "middle";
}

/** Ticks at 0, 0.2, … 1 of a probability axis. */
export const PROBABILITY_TICKS: readonly Tick[] = [0, 0.2, 0.4, 0.6, 0.8, 1].map((at) => ({
  at,
  label: at === 0 || at === 1 ? String(at) : at.toFixed(1),
}));

/** Ticks at 0, half and all of a percent axis whose top is `most` (0–1). */
export function percentTicks(most: number): Tick[] {
  return [0, 0.5, 1].map((at) => ({ at, label: `${Math.round(at * most * 100)}%` }));
}

/** Ticks at 0, half (when whole) and `most` of a count axis. */
export function countTicks(most: number): Tick[] {
  const ticks: Tick[] = [{ at: 0, label: "0" }];
  if (most >= 2 && most % 2 === 0) ticks.push({ at: 0.5, label: String(most / 2) });
  ticks.push({ at: 1, label: String(most) });
  return ticks;
}

/** A share (0–1) as a whole percent. */
export const percent = (share: number): string => `${(share * 100).toFixed(0)}%`;
