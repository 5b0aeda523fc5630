/**
 * The console's pictures as SVG drawn by Preact: a few bars, a line and a diagonal do not need a
 * chart library, and an SVG keeps the page free of canvas and of inline scripts. Each is a
 * {@link Chart}: a title saying what it shows, axes titled with their units.
 */
import { html } from "htm/preact";
import {
  Axes,
  Chart,
  countTicks,
  Frame,
  type LegendEntry,
  PLOT,
  PROBABILITY_TICKS,
  percent,
  percentTicks,
  type Tick,
  xAt,
  yAt,
} from "./chartFrame.js";
import type { PolicyStats } from "./types.js";

const BAR = "#7da3dc";
const THRESHOLD = "#9a3b00";

/** The share of items sent to review per UTC day, a bar per day with the day under it. */
export function FallbackRateChart({ days }: { days: PolicyStats["fallbackByDay"] }) {
  const title = "Sent to review: share of the day's outcomes, per day";
  if (days.length === 0)
    return html`<${Chart} title=${title} kind="fallback-by-day"><p class="note">No outcomes yet.</p></${Chart}>`;
  const step = 1 / days.length;
  // At most about seven day labels fit under the axis: every n-th day, the last one always.
  const every = Math.ceil(days.length / 7);
  const xTicks: Tick[] = days.flatMap((day, index) =>
    index % every === 0 || index === days.length - 1
      ? [{ at: (index + 0.5) * step, label: days.length === 1 ? day.day : day.day.slice(5) }]
      : [],
  );
  if (xTicks.length > 1 && (xTicks.at(-1)?.at ?? 0) - (xTicks.at(-2)?.at ?? 0) < step * every * 0.99)
    xTicks.splice(xTicks.length - 2, 1);
  const year = days[0]?.day.slice(0, 4) ?? "";
  return html`<${Chart} title=${title} kind="fallback-by-day">
    <${Frame} label=${`${title}: ${days.map((day) => `${day.day} ${day.fallback} of ${day.total}`).join(", ")}`}>
      ${days.map((day, index) => {
        const share = day.total === 0 ? 0 : day.fallback / day.total;
        const height = share * PLOT.height;
        const width = step * PLOT.width;
        return html`<rect x=${xAt(index * step) + 1} y=${yAt(share)} width=${Math.max(1, width - 2)} height=${height} fill=${BAR}>
            <title>${day.day}: ${day.fallback} of ${day.total} (${percent(share)})</title>
          </rect>`;
      })}
      <${Axes}
        xTitle=${days.length === 1 ? "day (UTC)" : `day (UTC, month-day of ${year})`}
        yTitle="sent to review (%)"
        xTicks=${xTicks}
        yTicks=${percentTicks(1)}
      />
    </${Frame}>
  </${Chart}>`;
}

/** How confident the model was: counts per bin of its top probability, the threshold marked. */
export function ConfidenceHistogram({
  question,
  bins,
  threshold,
}: {
  question: string;
  bins: number[];
  threshold: number;
}) {
  const title = `${question}: the model's confidence, outcomes per bin of its top probability`;
  const most = Math.max(1, ...bins);
  const step = 1 / bins.length;
  return html`<${Chart} title=${title} kind="confidence">
    <${Frame} label=${`${title}; threshold ${threshold}; counts ${bins.join(", ")}`}>
      ${bins.map(
        (
          count,
          index,
        ) => html`<rect x=${xAt(index * step) + 1} y=${yAt(count / most)} width=${Math.max(1, step * PLOT.width - 2)} height=${(count / most) * PLOT.height} fill=${BAR}>
          <title>${(index * step).toFixed(1)}–${((index + 1) * step).toFixed(1)}: ${count} outcomes</title>
        </rect>`,
      )}
      <line x1=${xAt(threshold)} x2=${xAt(threshold)} y1=${yAt(1) - 2} y2=${yAt(0)} stroke=${THRESHOLD} stroke-width="2" />
      <text class="marker" x=${xAt(threshold)} y=${yAt(1) - 5} text-anchor=${threshold > 0.7 ? "end" : threshold < 0.3 ? "start" : "middle"}>threshold ${threshold}</text>
      <${Axes} xTitle="model's top probability (0–1)" yTitle="outcomes (count)" xTicks=${PROBABILITY_TICKS} yTicks=${countTicks(most)} />
    </${Frame}>
  </${Chart}>`;
}

/**
 * Predicted probability against the share reviewers agreed with, per bin; the diagonal is
 * calibrated. With no reviewed item there is nothing to draw, and it says so and when it appears.
 */
export function ReliabilityDiagram({
  question,
  bins,
  labelled,
}: {
  question: string;
  bins: PolicyStats["questions"][number]["reliability"];
  labelled: number;
}) {
  const title = `${question}: reliability from ${labelled} reviewed item${labelled === 1 ? "" : "s"}`;
  const points = bins.filter((bin) => bin.count > 0);
  if (points.length === 0)
    return html`<${Chart} title=${title} kind="reliability">
      <p class="note empty-chart">No reviewed item answers ${question} yet, so there is nothing to draw. The diagram appears once people review items of this policy (items sent to review, or audit items) and answer ${question}.</p>
    </${Chart}>`;
  return html`<${Chart} title=${title} kind="reliability">
    <${Frame} label=${`${title}: ${points.map((bin) => `predicted ${bin.predicted.toFixed(2)}, agreed ${percent(bin.observed)} of ${bin.count}`).join("; ")}`}>
      <line x1=${xAt(0)} y1=${yAt(0)} x2=${xAt(1)} y2=${yAt(1)} stroke="#c0c6d0" stroke-dasharray="4 3" />
      ${points.map(
        (
          bin,
        ) => html`<circle cx=${xAt(bin.predicted)} cy=${yAt(bin.observed)} r=${Math.min(9, 3 + Math.sqrt(bin.count))} fill="#1f5fbf" fill-opacity="0.7">
          <title>predicted ${bin.predicted.toFixed(2)}, agreed ${percent(bin.observed)} of ${bin.count}</title>
        </circle>`,
      )}
      <${Axes} xTitle="model's predicted probability (0–1)" yTitle="reviewers agreed (%)" xTicks=${PROBABILITY_TICKS} yTicks=${percentTicks(1)} />
    </${Frame}>
    <p class="note">The dashed diagonal is a calibrated model. Reviewed items are mostly low-confidence ones (only those reach a person), so this diagram leans that way.</p>
  </${Chart}>`;
}

/**
 * Two bars per bin of the model's top probability (equal bins over 0–1): two sides of a
 * comparison on one scale, as shares (`unit: "share"`, 0–1) or counts.
 */
export function PairedHistogram({
  title,
  kind,
  sides,
  unit,
}: {
  title: string;
  kind: string;
  sides: readonly [LegendEntry & { values: readonly number[] }, LegendEntry & { values: readonly number[] }];
  unit: "share" | "count";
}) {
  const [a, b] = sides;
  const bins = Math.max(a.values.length, b.values.length, 1);
  const most =
    unit === "share" ? Math.max(0.01, ...a.values, ...b.values) : Math.max(1, ...a.values, ...b.values);
  const step = 1 / bins;
  const width = Math.max(1, (step * PLOT.width) / 2 - 1);
  const show = (value: number) => (unit === "share" ? `${(value * 100).toFixed(1)}%` : String(value));
  return html`<${Chart} title=${title} kind=${kind} legend=${[a, b]}>
    <${Frame} label=${`${title}: ${a.name} ${a.values.map(show).join(", ")}; ${b.name} ${b.values.map(show).join(", ")}`}>
      ${Array.from({ length: bins }, (_, index) => {
        const from = (index * step).toFixed(1);
        const to = ((index + 1) * step).toFixed(1);
        return html`<g>
          ${[a, b].map((side, which) => {
            const value = side.values[index] ?? 0;
            return html`<rect x=${xAt(index * step) + 1 + which * width} y=${yAt(value / most)} width=${width} height=${(value / most) * PLOT.height} fill=${side.colour}>
              <title>confidence ${from}–${to}: ${show(value)} ${side.name}</title>
            </rect>`;
          })}
        </g>`;
      })}
      <${Axes}
        xTitle="model's top probability (0–1)"
        yTitle=${unit === "share" ? "share of answers (%)" : "items (count)"}
        xTicks=${PROBABILITY_TICKS}
        yTicks=${unit === "share" ? percentTicks(most) : countTicks(most)}
      />
    </${Frame}>
  </${Chart}>`;
}
