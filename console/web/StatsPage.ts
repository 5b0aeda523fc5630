/** A policy's page: the share sent to review per day, each question's confidence and reliability, drift and shadow. */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { call } from "./api.js";
import { ConfidenceHistogram, FallbackRateChart, ReliabilityDiagram } from "./charts.js";
import { DriftSection } from "./drift.js";
import { ShadowSection } from "./shadow.js";
import type { PolicyStats } from "./types.js";

/** The pictures of one policy, its questions in the policy's order. */
export function StatsPage({ policy }: { policy: string }) {
  const [stats, setStats] = useState<PolicyStats | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    call<PolicyStats>(`/api/policies/${encodeURIComponent(policy)}/stats`).then(setStats, (failure: Error) =>
      setError(failure.message),
    );
  }, [policy]);
  if (stats === undefined)
    return error === undefined ? html`<p>Loading…</p>` : html`<p class="error" role="alert">${error}</p>`;
  return html`
    <h2>${policy}</h2>
    <p class="note">From the newest ${stats.outcomes} outcomes.</p>
    <div class="charts">
      <figure><${FallbackRateChart} days=${stats.fallbackByDay} /></figure>
      ${stats.questions.map(
        (question) => html`
          <figure data-question=${question.id}><${ConfidenceHistogram} question=${question.id} bins=${question.confidence} threshold=${question.threshold} /></figure>
          <figure data-question=${question.id}><${ReliabilityDiagram} question=${question.id} bins=${question.reliability} labelled=${question.labelled} /></figure>`,
      )}
    </div>
    <${DriftSection} policy=${policy} />
    <${ShadowSection} policy=${policy} order=${stats.questions.map((question) => question.id)} />`;
}
