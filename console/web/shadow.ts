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
import { Chart, FRAME } from "./chartFrame.js";
import { PairedHistogram } from "./charts.js";
import type { AccuracyEstimate, QuestionComparison, ShadowReport } from "./types.js";

const LIVE = "#8494ab";
const CANDIDATE = "#b3541e";
/** The left and right margins of the one-row pictures (agreement, accuracy). */
const SIDE = 16;

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
/** The x coordinate of a share (0–1) along a one-row picture. */
const along = (share: number) => SIDE + share * (FRAME.width - 2 * SIDE);

/**
 * The shadow section of the policy page, loaded on its own; says so when the policy has no shadow
 * records. Its questions follow `order` (the policy's), any other after them.
 */
export function ShadowSection({ policy, order }: { policy: string; order: readonly string[] }) {
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
    <p class="note shadow-summary">
      <span class="candidate-name">Candidate ${name}${what === "" ? "" : ` (${what})`}:</span>${" "}
      <span data-field="records">${report.records}</span> records,${" "}
      <span data-field="sampled">${report.sampled}</span> items compared,${" "}
      <span data-field="failed">${report.failed}</span> failed,${" "}
      <span data-field="missing-live">${report.missing_live}</span> without a live outcome.
      Live outcomes count as the pipeline decided them.
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
      ${inOrder(Object.entries(report.questions), order).map(
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
  const sides = [
    { name: "live", colour: LIVE, values: comparison.confidence.a },
    { name, colour: CANDIDATE, values: comparison.confidence.b },
  ] as const;
  const interval = (estimate: AccuracyEstimate) =>
    `${percent(estimate.accuracy)} [${percent(estimate.interval.lower)}, ${percent(estimate.interval.upper)}]`;
  return html`<figure class="shadow-question" data-question=${question}>
    <figcaption>
      ${question}: agreement <strong data-field="agreement">${percent(comparison.agreement)}</strong> (${comparison.agreed} of ${comparison.compared})
    </figcaption>
    <${AgreementBar} question=${question} agreement=${comparison.agreement} />
    <${PairedHistogram}
      title=${`${question}: the model's confidence, items per bin of its top probability, live against ${name}`}
      kind="shadow-confidence"
      unit="count"
      sides=${sides}
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

/** The entries of `entries` in the order of `order`, any other after them as they came. */
function inOrder<T>(entries: readonly [string, T][], order: readonly string[]): [string, T][] {
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  return [...entries].sort(([x], [y]) => rank(x) - rank(y));
}

/** The ticks of a 0–100 % axis along a one-row picture, at `y`. */
function percentAxis(y: number, title: string) {
  return html`<line x1=${along(0)} x2=${along(1)} y1=${y} y2=${y} stroke="#8a93a3" />
    ${[0, 0.5, 1].map(
      (at) => html`<line x1=${along(at)} x2=${along(at)} y1=${y} y2=${y + 4} stroke="#8a93a3" />
        <text class="tick" x=${along(at)} y=${y + 16} text-anchor=${at === 0 ? "start" : at === 1 ? "end" : "middle"}>${at * 100}%</text>`,
    )}
    <text class="axis-title" data-axis="x" x=${along(0.5)} y=${y + 32} text-anchor="middle">${title}</text>`;
}

/** One horizontal bar: the share of items whose answers agree, on a 0–100 % axis. */
function AgreementBar({ question, agreement }: { question: string; agreement: number }) {
  const title = `${question}: agreement, share of the compared items with the same answer`;
  return html`<${Chart} title=${title} kind="agreement">
    <svg class="frame" width=${FRAME.width} height="66" viewBox="0 0 ${FRAME.width} 66" role="img" aria-label=${`${title}: ${percent(agreement)}`}>
      <rect x=${along(0)} y="4" width=${along(1) - along(0)} height="14" fill="#e4e8ef" />
      <rect x=${along(0)} y="4" width=${along(agreement) - along(0)} height="14" fill=${CANDIDATE} />
      ${percentAxis(22, "agreement (% of compared items)")}
    </svg>
  </${Chart}>`;
}

/** Live's and the candidate's accuracy with their intervals, each row named above its line, on a 0–100 % axis. */
function AccuracyIntervals({
  question,
  accuracy,
  name,
}: {
  question: string;
  accuracy: NonNullable<QuestionComparison["accuracy"]>;
  name: string;
}) {
  const rows: Array<[string, AccuracyEstimate, string, number]> = [
    ["live", accuracy.a, LIVE, 22],
    [name, accuracy.b, CANDIDATE, 54],
  ];
  const title = `${question}: accuracy with 95% Wilson intervals, live against ${name}`;
  return html`<${Chart} title=${title} kind="accuracy">
    <svg class="frame" width=${FRAME.width} height="110" viewBox="0 0 ${FRAME.width} 110" role="img" aria-label=${title}>
      ${rows.map(
        ([label, estimate, colour, y]) => html`<g>
          <text class="row-label" x=${along(0)} y=${y - 8}>${label}: ${percent(estimate.accuracy)}</text>
          <line x1=${along(estimate.interval.lower)} y1=${y} x2=${along(estimate.interval.upper)} y2=${y} stroke=${colour} stroke-width="3" />
          <circle cx=${along(estimate.accuracy)} cy=${y} r="4" fill=${colour}>
            <title>${label}: ${percent(estimate.accuracy)} [${percent(estimate.interval.lower)}, ${percent(estimate.interval.upper)}]</title>
          </circle>
        </g>`,
      )}
      ${percentAxis(66, "accuracy (% of reviewed items)")}
    </svg>
  </${Chart}>`;
}
