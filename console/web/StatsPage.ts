/** A policy's page: the share sent to review per day, each question's confidence and reliability, and drift. */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { call } from "./api.js";
import { ConfidenceHistogram, FallbackRateChart, ReliabilityDiagram } from "./charts.js";
import { DriftSection } from "./drift.js";
import { ShadowSection } from "./shadow.js";
import type { PolicyStats } from "./types.js";

/** The pictures of one policy. */
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
      <figure><figcaption>Sent to review, per day</figcaption><${FallbackRateChart} days=${stats.fallbackByDay} /></figure>
      ${stats.questions.map(
        (question) => html`
          <figure><figcaption>${question.id}: the model's confidence</figcaption><${ConfidenceHistogram} bins=${question.confidence} threshold=${question.threshold} /></figure>
          <figure><figcaption>${question.id}: reliability from ${question.labelled} reviewed items</figcaption><${ReliabilityDiagram} bins=${question.reliability} />
            <p class="note">Reviewed items are mostly low-confidence ones (only those reach a person), so this diagram leans that way.</p></figure>`,
      )}
    </div>
    <${DriftSection} policy=${policy} />
    <${ShadowSection} policy=${policy} />`;
}
