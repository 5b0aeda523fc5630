import { html } from "htm/preact";
import { reviewHistoryEntries } from "../../contract/outcome/reviewHistory.js";
import type { ItemView } from "./types.js";

/**
 * What happened to an item: the rules that fired (with the policy's descriptions), then its history
 * worded as `decisions outcomes show` words it ("amended by carol: queue=sales (was billing) →
 * reviewed"), its times in the reader's own time zone.
 */
export function ItemHistory({ view }: { view: ItemView }) {
  const { outcome } = view;
  return html`
    <h3>Rules fired</h3>
    ${
      (outcome.rules_fired ?? []).length === 0
        ? html`<p class="note">none</p>`
        : html`<ul>${(outcome.rules_fired ?? []).map((fired) => {
            const rule = view.policy.rules.find((r) => r.name === fired.name);
            return html`<li><strong>${fired.name}</strong> (${fired.effect})${rule?.description ? ` — ${rule.description}` : ""}${fired.reason ? `: ${fired.reason}` : ""}</li>`;
          })}</ul>`
    }
    <h3>History</h3>
    <ul class="history">
      ${reviewHistoryEntries(outcome, view.history).map(
        (entry) =>
          html`<li>${entry.at === undefined ? null : html`<time datetime=${entry.at}>${new Date(entry.at).toLocaleString()}</time> `}${entry.text}</li>`,
      )}
    </ul>`;
}
