/**
 * The drift part of a policy's page: per question, the share of each answer and the model's
 * confidence in the baseline (the day before) against the last hour, the distance and whether it
 * is over the alarm threshold, the options that moved and the options flagged (docs/drift.md).
 * Where a number is missing it says why and when it appears: the distance needs enough answers on
 * both sides, and the baseline is the previous day of outcomes.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { call } from "./api.js";
import { percent } from "./chartFrame.js";
import { PairedHistogram } from "./charts.js";
import { ShareList } from "./shareList.js";
import type { ConsoleDriftReport, QuestionDrift } from "./types.js";

const BEFORE = { name: "day before", colour: "#8494ab" };
const NOW = { name: "last hour", colour: "#1f5fbf" };

/** An ISO time as "2026-12-03 11:00 UTC". */
export function utcTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The length of a time range in words: "1 hour", "24 hours", "90 minutes". */
function lengthOf(range: { since: string; until: string }): string {
  const minutes = Math.round((Date.parse(range.until) - Date.parse(range.since)) / 60_000);
  if (minutes % 60 !== 0) return `${minutes} minutes`;
  return minutes === 60 ? "1 hour" : `${minutes / 60} hours`;
}

/** The drift section of the policy page, loaded on its own so the rest of the page does not wait. */
export function DriftSection({ policy }: { policy: string }) {
  const [report, setReport] = useState<ConsoleDriftReport | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    call<ConsoleDriftReport>(`/api/policies/${encodeURIComponent(policy)}/drift`).then(
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
    <p class="note">${[
      `The last hour: answers decided from ${utcTime(report.window.since)} to ${utcTime(report.window.until)}.`,
      `The baseline (the day before): the ${lengthOf(report.baseline)} before it, from ${utcTime(report.baseline.since)}.`,
      `Distance: Jensen–Shannon divergence in bits (0 to 1), counted once each side holds at least ${report.settings.min_outcomes} answers; the alarm fires above ${report.threshold} bits.`,
    ].join(" ")}</p>
    <div class="charts">
      ${report.questions.map(
        (question) => html`<${QuestionDriftFigure} question=${question} report=${report} />`,
      )}
    </div>
  </section>`;
}

/** Why the distance of a question is missing or does not count, and when it will; undefined when it counts. */
export function missingDistance(question: QuestionDrift, report: ConsoleDriftReport): string | undefined {
  const need = report.settings.min_outcomes;
  const { baseline, window } = question.counts;
  const day = `the ${lengthOf(report.baseline)} before the last hour (from ${utcTime(report.baseline.since)} to ${utcTime(report.baseline.until)})`;
  if (baseline === 0 && window === 0)
    return `No answers to compare: none was decided in the last hour or in ${day}.`;
  if (baseline === 0)
    return `No baseline yet: the baseline is the answers decided in ${day}, and there were none. The distance appears once that day holds at least ${need} answers — after a day of outcomes — and the last hour too.`;
  if (window === 0)
    return `No answers in the last hour, so there is nothing to compare with the baseline. The distance appears once the last hour holds at least ${need} answers.`;
  if (!question.enough)
    return `Too few answers for the distance to count: ${window} in the last hour and ${baseline} in the day before; each side needs at least ${need}. It counts once both have that many.`;
  return undefined;
}

function QuestionDriftFigure({ question, report }: { question: QuestionDrift; report: ConsoleDriftReport }) {
  const missing = missingDistance(question, report);
  const bothSides = question.counts.baseline > 0 && question.counts.window > 0;
  const points = Math.round(report.settings.moved_share * 100);
  const verdict = question.over_threshold
    ? html`<strong class="badge over">over the threshold</strong>`
    : question.enough
      ? html`<span class="badge">under the threshold</span>`
      : html`<span class="badge">not measured</span>`;
  return html`<figure class="drift-question" data-question=${question.question}>
    <figcaption>
      <strong>${question.question}</strong>${`: ${question.counts.window} answers in the last hour, ${question.counts.baseline} in the day before. `}${
        missing === undefined
          ? html`Distance <span data-field="distance">${question.distance?.toFixed(3)}</span> bits ${verdict}`
          : verdict
      }
    </figcaption>
    ${missing === undefined ? null : html`<p class="note missing" data-field="missing">${missing}</p>`}
    <${ShareList}
      title=${`${question.question}: share of the model's answers per option`}
      kind="answer-share"
      rows=${question.answers.map((answer) => ({ name: answer.option, a: answer.baseline, b: answer.window }))}
      sides=${[BEFORE, NOW]}
    />
    <${PairedHistogram}
      title=${`${question.question}: the model's confidence, share of answers per bin of its top probability`}
      kind="drift-confidence"
      unit="share"
      sides=${[
        { ...BEFORE, values: question.confidence.baseline },
        { ...NOW, values: question.confidence.window },
      ]}
    />
    ${
      !bothSides
        ? null
        : question.moved.length === 0
          ? html`<p class="note">No option's share moved by ${points} points or more between the day before and the last hour.</p>`
          : html`<p class="note">Moved by ${points} points or more:</p>
            <ul class="moved">
              ${question.moved.map(
                (moved) =>
                  html`<li>${moved.option}: ${percent(moved.baseline)} → ${percent(moved.window)}</li>`,
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
