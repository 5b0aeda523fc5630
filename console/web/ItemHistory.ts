import { html } from "htm/preact";
import type { ItemView } from "./types.js";

/** What happened to an item: the rules that fired (with the policy's descriptions), its decision and every review. */
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
    <ul>
      <li>decided ${new Date(outcome.created_at).toLocaleString()}${outcome.model ? ` by ${outcome.model}` : ""}</li>
      ${view.history.map(
        (review) =>
          html`<li>reviewed by ${review.by ?? "someone"} at ${new Date(review.at).toLocaleString()}: ${Object.entries(
            review.answers,
          )
            .map(([q, a]) => `${q}=${String(a)}`)
            .join(
              ", ",
            )}${(review.remaining ?? []).length > 0 ? ` (partial; still open: ${(review.remaining ?? []).join(", ")})` : ""}</li>`,
      )}
    </ul>`;
}
