/**
 * The shadow part of a policy's page: what its candidate (another model endpoint and/or another
 * version of the policy) would have decided for the sampled items, against the live outcomes — the
 * report of `decisions shadow report` (`GET /api/policies/{policy}/shadow`, one computation for both):
 * per question the agreement, the moves to and from review, the review load at each side's
 * thresholds, the confidence histograms of live and candidate, and accuracy with 95 % Wilson
 * intervals where people answered; the status transitions and the rules firing differently.
 * Drawn as SVG like the drift part, with the numbers beside.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { call } from "./api.js";
import type { AccuracyEstimate, QuestionComparison, ShadowReport } from "./types.js";

const W = 320;
const H = 160;
const PAD = 36;
const LIVE = "#9aa7bb";
const CANDIDATE = "#b3541e";

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The shadow section of the policy page, loaded on its own; nothing when the policy has no shadow records. */
export function ShadowSection({ policy }: { policy: string }) {
  const [report, setReport] = useState<ShadowReport | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    call<ShadowReport>(`/api/policies/${encodeURIComponent(policy)}/shadow`).then(
      setReport,
      (failure: Error) => setError(failure.message),
    );
  }, [policy]);
  if (report === undefined)
    return error === undefined
      ? html`<p class="shadow-loading">Reading shadow records…</p>`
      : html`<p class="error" role="alert">${error}</p>`;
  if (report.records === 0)
    return html`<section class="shadow" aria-labelledby="shadow-heading">
      <h3 id="shadow-heading">Shadow</h3>
      <p class="note">No shadow records: this policy has no candidate (docs/changing-models.md).</p>
    </section>`;
  const candidate = report.candidate;
  const name = candidate?.name ?? "candidate";
  const what = [
    candidate?.model_sha256 === undefined ? "" : `model ${candidate.model_sha256.slice(0, 12)}`,
    candidate?.policy_version === undefined ? "" : `policy version ${candidate.policy_version}`,
  ]
    .filter((part) => part !== "")
    .join(", ");
  const transitions = Object.entries(report.status.transitions).sort(([x], [y]) => (x < y ? -1 : 1));
  const rules = report.rules.filter((rule) => rule.only_a > 0 || rule.only_b > 0);
  return html`<section class="shadow" aria-labelledby="shadow-heading">
    <h3 id="shadow-heading">Shadow: ${name} against live</h3>
    <p class="note">
      Candidate ${name}${what === "" ? "" : ` (${what})`}: <span data-field="records">${report.records}</span> records,
      <span data-field="sampled">${report.sampled}</span> items compared, <span data-field="failed">${report.failed}</span>
      failed, ${report.missing_live} without a live outcome. Live outcomes count as the pipeline decided them.
      <span class="legend"><span class="swatch" style=${`background:${LIVE}`}></span> live
      <span class="swatch" style=${`background:${CANDIDATE}`}></span> ${name}</span>
    </p>
    <table class="shadow-status">
      <tbody>
        <tr><th scope="row">Status changed</th><td data-field="status-changed">${report.status.changed.count} (${percent(report.status.changed.share)})</td></tr>
        <tr><th scope="row">Decided → review</th><td data-field="to-review">${report.status.to_review.count} (${percent(report.status.to_review.share)})</td></tr>
        <tr><th scope="row">Review → decided</th><td data-field="to-automated">${report.status.to_automated.count} (${percent(report.status.to_automated.share)})</td></tr>
        <tr><th scope="row">Review load (items)</th><td data-field="review-load">live ${report.review_load.a.count} (${percent(report.review_load.a.share)}), ${name} ${report.review_load.b.count} (${percent(report.review_load.b.share)})</td></tr>
      </tbody>
    </table>
    ${
      transitions.length === 0
        ? null
        : html`<ul class="transitions">
          ${transitions.map(([transition, count]) => html`<li data-transition=${transition}>${transition}: ${count}</li>`)}
        </ul>`
    }
    ${
      rules.length === 0
        ? null
        : html`<ul class="rules">
          ${rules.map(
            (rule) =>
              html`<li data-rule=${rule.name}>rule ${rule.name}: live only ${rule.only_a}, ${name} only ${rule.only_b}</li>`,
          )}
        </ul>`
    }
    <div class="charts">
      ${Object.entries(report.questions).map(
        ([question, comparison]) =>
          html`<${QuestionShadowFigure} question=${question} comparison=${comparison} name=${name} />`,
      )}
    </div>
  </section>`;
}

function QuestionShadowFigure({
  question,
  comparison,
  name,
}: {
  question: string;
  comparison: QuestionComparison;
  name: string;
}) {
  const accuracy = comparison.accuracy;
  const interval = (estimate: AccuracyEstimate) =>
    `${percent(estimate.accuracy)} [${percent(estimate.interval.lower)}, ${percent(estimate.interval.upper)}]`;
  return html`<figure class="shadow-question" data-question=${question}>
    <figcaption>
      ${question}: agreement <strong data-field="agreement">${percent(comparison.agreement)}</strong>
      (${comparison.agreed} of ${comparison.compared})
    </figcaption>
    <${AgreementBar} question=${question} agreement=${comparison.agreement} />
    <${PairedBars}
      label=${`${question}: the model's confidence, live against ${name}`}
      names=${comparison.confidence.a.map((_, index, bins) => (index / bins.length).toFixed(1))}
      live=${comparison.confidence.a}
      candidate=${comparison.confidence.b}
    />
    <dl class="shadow-numbers">
      <dt>To review</dt><dd data-field="question-to-review">${comparison.to_review.count} (${percent(comparison.to_review.share)})</dd>
      <dt>Back to automated</dt><dd data-field="question-to-automated">${comparison.to_automated.count} (${percent(comparison.to_automated.share)})</dd>
      <dt>Review load</dt><dd data-field="question-review-load">live ${percent(comparison.review_load.a.share)}, ${name} ${percent(comparison.review_load.b.share)}</dd>
      <dt>Mean confidence</dt><dd>live ${comparison.confidence.mean_a.toFixed(2)}, ${name} ${comparison.confidence.mean_b.toFixed(2)}</dd>
      ${
        accuracy === undefined
          ? html`<dt>Accuracy</dt><dd data-field="accuracy">no reviewed or audited item yet</dd>`
          : html`<dt>Accuracy (${accuracy.labelled} reviewed, 95% Wilson)</dt>
            <dd data-field="accuracy">live ${interval(accuracy.a)}, ${name} ${interval(accuracy.b)}</dd>`
      }
    </dl>
    ${accuracy === undefined ? null : html`<${AccuracyIntervals} question=${question} accuracy=${accuracy} name=${name} />`}
  </figure>`;
}

/** One horizontal bar: the share of items whose answers agree. */
function AgreementBar({ question, agreement }: { question: string; agreement: number }) {
  const width = W - 2 * PAD;
  return html`<svg viewBox="0 0 ${W} 28" role="img" aria-label=${`${question}: agreement ${percent(agreement)}`}>
    <rect x=${PAD} y="6" width=${width} height="14" fill="#e4e8ef" />
    <rect x=${PAD} y="6" width=${width * agreement} height="14" fill=${CANDIDATE} />
    <text x=${PAD - 4} y="18" text-anchor="end">agree</text>
  </svg>`;
}

/** Live's and the candidate's accuracy with their intervals, on a 0–100 % scale. */
function AccuracyIntervals({
  question,
  accuracy,
  name,
}: {
  question: string;
  accuracy: NonNullable<QuestionComparison["accuracy"]>;
  name: string;
}) {
  const x = (share: number) => PAD + share * (W - 2 * PAD);
  const rows: Array<[string, AccuracyEstimate, string, number]> = [
    ["live", accuracy.a, LIVE, 14],
    [name, accuracy.b, CANDIDATE, 34],
  ];
  return html`<svg viewBox="0 0 ${W} 48" role="img" aria-label=${`${question}: accuracy with 95% intervals, live against ${name}`}>
    ${rows.map(
      ([label, estimate, colour, y]) => html`<g>
        <text x=${PAD - 4} y=${y + 4} text-anchor="end">${label.slice(0, 6)}</text>
        <line x1=${x(estimate.interval.lower)} y1=${y} x2=${x(estimate.interval.upper)} y2=${y} stroke=${colour} stroke-width="3" />
        <circle cx=${x(estimate.accuracy)} cy=${y} r="4" fill=${colour}>
          <title>${label}: ${percent(estimate.accuracy)}</title>
        </circle>
      </g>`,
    )}
  </svg>`;
}

/** Two bars per bin: live's count and the candidate's, on one scale. */
function PairedBars({
  label,
  names,
  live,
  candidate,
}: {
  label: string;
  names: string[];
  live: number[];
  candidate: number[];
}) {
  const most = Math.max(1, ...live, ...candidate);
  const step = (W - 2 * PAD) / Math.max(1, names.length);
  const bar = Math.max(1, step / 2 - 1);
  const height = (count: number) => (count / most) * (H - 2 * PAD);
  return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label=${label}>
    <line x1=${PAD} y1=${H - PAD} x2=${W - PAD} y2=${H - PAD} stroke="#8a93a3" />
    <text x=${PAD - 4} y=${PAD + 4} text-anchor="end">${most}</text>
    ${names.map((name, index) => {
      const x = PAD + index * step;
      const a = live[index] ?? 0;
      const b = candidate[index] ?? 0;
      return html`<g>
        <rect x=${x + 1} y=${H - PAD - height(a)} width=${bar} height=${height(a)} fill=${LIVE}>
          <title>confidence ${name}: ${a} live</title>
        </rect>
        <rect x=${x + 1 + bar} y=${H - PAD - height(b)} width=${bar} height=${height(b)} fill=${CANDIDATE}>
          <title>confidence ${name}: ${b} candidate</title>
        </rect>
        ${names.length <= 10 ? html`<text x=${x + step / 2} y=${H - PAD + 14} text-anchor="middle">${name}</text>` : null}
      </g>`;
    })}
  </svg>`;
}
