/**
 * The console's pictures as SVG drawn by Preact: a few bars, a line and a diagonal do not need a
 * chart library, and an SVG keeps the page free of canvas and of inline scripts.
 */
import { html } from "htm/preact";
import type { PolicyStats } from "./types.js";

const W = 320;
const H = 160;
const PAD = 36;

/** The share of items sent to review per day, as bars with the count on hover. */
export function FallbackRateChart({ days }: { days: PolicyStats["fallbackByDay"] }) {
  if (days.length === 0) return html`<p class="note">No outcomes yet.</p>`;
  const step = (W - 2 * PAD) / days.length;
  return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Share of items sent to review per day">
    ${axis("0%", "100%")}
    ${days.map((day, index) => {
      const share = day.total === 0 ? 0 : day.fallback / day.total;
      const height = share * (H - 2 * PAD);
      return html`<rect x=${PAD + index * step + 1} y=${H - PAD - height} width=${Math.max(1, step - 2)} height=${height} fill="#7da3dc">
          <title>${day.day}: ${day.fallback} of ${day.total} (${(share * 100).toFixed(0)}%)</title>
        </rect>`;
    })}
    <text x=${PAD} y=${H - 8}>${days[0]?.day}</text>
    <text x=${W - PAD} y=${H - 8} text-anchor="end">${days.at(-1)?.day}</text>
  </svg>`;
}

/** How confident the model was: counts per bin of its top probability, the threshold marked. */
export function ConfidenceHistogram({ bins, threshold }: { bins: number[]; threshold: number }) {
  const most = Math.max(1, ...bins);
  const step = (W - 2 * PAD) / bins.length;
  const x = PAD + threshold * (W - 2 * PAD);
  return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Histogram of the model's confidence, threshold ${threshold}">
    ${axis("0", String(most))}
    ${bins.map((count, index) => {
      const height = (count / most) * (H - 2 * PAD);
      return html`<rect x=${PAD + index * step + 1} y=${H - PAD - height} width=${step - 2} height=${height} fill="#7da3dc">
          <title>${(index / bins.length).toFixed(1)}–${((index + 1) / bins.length).toFixed(1)}: ${count}</title>
        </rect>`;
    })}
    <line x1=${x} x2=${x} y1=${PAD - 6} y2=${H - PAD} stroke="#9a3b00" stroke-width="2" />
    <text x=${x + 3} y=${PAD - 8}>threshold ${threshold}</text>
    <text x=${PAD} y=${H - 8}>0</text>
    <text x=${W - PAD} y=${H - 8} text-anchor="end">1</text>
  </svg>`;
}

/** Predicted probability against the share reviewers agreed with, per bin; the diagonal is calibrated. */
export function ReliabilityDiagram({ bins }: { bins: PolicyStats["questions"][number]["reliability"] }) {
  const points = bins.filter((bin) => bin.count > 0);
  const scale = (v: number) => v * (W - 2 * PAD);
  return html`<svg viewBox="0 0 ${W} ${H + 60}" role="img" aria-label="Reliability diagram from reviewed items">
    <g transform="translate(0, 30)">
      ${axis("0", "1")}
      <line x1=${PAD} y1=${H - PAD} x2=${W - PAD} y2=${PAD} stroke="#c0c6d0" stroke-dasharray="4 3" />
      ${points.map((bin) => {
        const cx = PAD + scale(bin.predicted);
        const cy = H - PAD - bin.observed * (H - 2 * PAD);
        return html`<circle cx=${cx} cy=${cy} r=${Math.min(9, 3 + Math.sqrt(bin.count))} fill="#1f5fbf" fill-opacity="0.7">
            <title>predicted ${bin.predicted.toFixed(2)}, agreed ${(bin.observed * 100).toFixed(0)}% of ${bin.count}</title>
          </circle>`;
      })}
      <text x=${PAD} y=${H - 8}>predicted 0</text>
      <text x=${W - PAD} y=${H - 8} text-anchor="end">1</text>
    </g>
  </svg>`;
}

function axis(low: string, high: string) {
  return html`<line x1=${PAD} y1=${H - PAD} x2=${W - PAD} y2=${H - PAD} stroke="#8a93a3" />
    <line x1=${PAD} y1=${PAD} x2=${PAD} y2=${H - PAD} stroke="#8a93a3" />
    <text x=${PAD - 4} y=${H - PAD} text-anchor="end">${low}</text>
    <text x=${PAD - 4} y=${PAD + 4} text-anchor="end">${high}</text>`;
}
