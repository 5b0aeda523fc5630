/**
 * The drift part of a policy's page: per question, the model's answers and its confidence in the
 * baseline against the last window (paired bars), the distance and whether it is over the alarm
 * threshold, the options that moved and the options flagged (docs/drift.md). Drawn as SVG like the
 * page's other pictures.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { call } from "./api.js";
import type { PolicyDriftReport, QuestionDrift } from "./types.js";

const W = 320;
const H = 160;
const PAD = 36;
const BEFORE = "#9aa7bb";
const NOW = "#1f5fbf";

/** The drift section of the policy page, loaded on its own so the rest of the page does not wait. */
export function DriftSection({ policy }: { policy: string }) {
  const [report, setReport] = useState<PolicyDriftReport | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    call<PolicyDriftReport>(`/api/policies/${encodeURIComponent(policy)}/drift`).then(
      setReport,
      (failure: Error) => setError(failure.message),
    );
  }, [policy]);
  if (report === undefined)
    return error === undefined
      ? html`<p class="drift-loading">Measuring drift…</p>`
      : html`<p class="error" role="alert">${error}</p>`;
  return html`<section class="drift" aria-labelledby="drift-heading">
    <h3 id="drift-heading">Drift: the last hour against the day before</h3>
    <p class="note">
      Window ${report.window.since} – ${report.window.until}; baseline from ${report.baseline.since}.
      Distance: Jensen–Shannon divergence in bits; the alarm fires above ${report.threshold}.
      <span class="legend"><span class="swatch" style=${`background:${BEFORE}`}></span> baseline
      <span class="swatch" style=${`background:${NOW}`}></span> last hour</span>
    </p>
    <div class="charts">
      ${report.questions.map((question) => html`<${QuestionDriftFigure} question=${question} />`)}
    </div>
  </section>`;
}

function QuestionDriftFigure({ question }: { question: QuestionDrift }) {
  const verdict = question.over_threshold
    ? html`<strong class="badge over">over the threshold</strong>`
    : question.enough
      ? html`<span class="badge">under the threshold</span>`
      : html`<span class="badge">too few answers</span>`;
  const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
  return html`<figure class="drift-question">
    <figcaption>
      ${question.question}: distance ${question.distance === null ? "–" : question.distance.toFixed(3)} ${verdict}
      (${question.counts.window} answers now, ${question.counts.baseline} before)
    </figcaption>
    <${PairedBars}
      label=${`${question.question}: share of each answer, baseline against the last hour`}
      names=${question.answers.map((answer) => answer.option)}
      before=${question.answers.map((answer) => answer.baseline)}
      now=${question.answers.map((answer) => answer.window)}
    />
    <${PairedBars}
      label=${`${question.question}: the model's confidence, baseline against the last hour`}
      names=${question.confidence.window.map((_, index, bins) => (index / bins.length).toFixed(1))}
      before=${question.confidence.baseline}
      now=${question.confidence.window}
    />
    ${
      question.moved.length === 0
        ? html`<p class="note">No option moved by 5 points or more.</p>`
        : html`<ul class="moved">
          ${question.moved.map(
            (moved) => html`<li>${moved.option}: ${percent(moved.baseline)} → ${percent(moved.window)}</li>`,
          )}
        </ul>`
    }
    ${
      question.flags.length === 0
        ? null
        : html`<ul class="flags">
          ${question.flags.map((flag) =>
            flag.kind === "rare"
              ? html`<li>${flag.option} is rarely chosen (${percent(flag.share)})</li>`
              : html`<li>reviewers answered ${flag.with} for ${percent(flag.share)} of ${flag.reviews} reviewed ${flag.option} answers</li>`,
          )}
        </ul>`
    }
  </figure>`;
}

/** Two bars per category: the baseline's share and the window's, on one scale. */
function PairedBars({
  label,
  names,
  before,
  now,
}: {
  label: string;
  names: string[];
  before: number[];
  now: number[];
}) {
  const most = Math.max(0.01, ...before, ...now);
  const step = (W - 2 * PAD) / Math.max(1, names.length);
  const bar = Math.max(1, step / 2 - 1);
  const height = (share: number) => (share / most) * (H - 2 * PAD);
  return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label=${label}>
    <line x1=${PAD} y1=${H - PAD} x2=${W - PAD} y2=${H - PAD} stroke="#8a93a3" />
    <text x=${PAD - 4} y=${PAD + 4} text-anchor="end">${`${(most * 100).toFixed(0)}%`}</text>
    ${names.map((name, index) => {
      const x = PAD + index * step;
      const b = before[index] ?? 0;
      const n = now[index] ?? 0;
      return html`<g>
        <rect x=${x + 1} y=${H - PAD - height(b)} width=${bar} height=${height(b)} fill=${BEFORE}>
          <title>${name}: ${(b * 100).toFixed(1)}% in the baseline</title>
        </rect>
        <rect x=${x + 1 + bar} y=${H - PAD - height(n)} width=${bar} height=${height(n)} fill=${NOW}>
          <title>${name}: ${(n * 100).toFixed(1)}% in the last hour</title>
        </rect>
        ${names.length <= 10 ? html`<text x=${x + step / 2} y=${H - PAD + 14} text-anchor="middle">${name.slice(0, 10)}</text>` : null}
      </g>`;
    })}
  </svg>`;
}
