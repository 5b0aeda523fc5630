/**
 * An item's page: its state beside the policy's questions, the model's answer to each as bars
 * with the threshold marked and what each option means, the questions a person must answer, the
 * rules that fired and the item's history. Locally, the reviewer's name is asked for first. The
 * review itself (picks, keys, sending, skipping) is {@link useItemReview}.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { ItemHistory } from "./ItemHistory.js";
import { prettyState } from "./prettyState.js";
import { QuestionCard } from "./QuestionCard.js";
import { type Filters, queueHref } from "./queueFilters.js";
import { NAME_FIELD_ID, useItemReview } from "./useItemReview.js";

/** Asks for the reviewer's name before the first answer (the local console has no sign-in). */
function NameFirst({ onName }: { onName: (name: string) => void }) {
  const [name, setName] = useState("");
  const done = (event: Event) => {
    event.preventDefault();
    if (name.trim() !== "") onName(name.trim());
  };
  return html`<form class="name-first" onSubmit=${done}>
    <label for=${NAME_FIELD_ID}>Your name, recorded with each review you give</label>
    <input id=${NAME_FIELD_ID} value=${name} onInput=${(event: Event) => setName((event.target as HTMLInputElement).value)} autocomplete="name" placeholder="your name" />
    <button type="submit">Start reviewing</button>
  </form>`;
}

/** The page of one item, reviewed by `reviewer` (`"token"` when signed in, empty until named). */
export function ItemPage(props: {
  policy: string;
  id: string;
  filters: Filters;
  reviewer: string;
  nameReviewer: (name: string) => void;
}) {
  const {
    view,
    error,
    conflict,
    amendNeeded,
    amending,
    notice,
    picks,
    active,
    saving,
    partialArmed,
    answerable,
    missing,
    load,
    startAmend,
    cancelAmend,
    pick,
    submit,
    skip,
    onNamed,
  } = useItemReview(props);
  if (view === undefined)
    return error === undefined ? html`<p>Loading…</p>` : html`<p class="error" role="alert">${error}</p>`;
  const { outcome } = view;
  // A person answered something here: changing it is an amendment.
  const reviewedBefore = view.history.length > 0 || outcome.status === "reviewed";
  return html`
    <p><a href=${queueHref(props.filters)}>← back to the queue</a></p>
    <h2>${outcome.id} <span class="note">${view.policy.name} v${view.policy.version} · ${outcome.status}</span>${outcome.audit === undefined ? null : html` <span class="badge audit">audit item</span>`}</h2>
    ${outcome.audit === undefined ? null : html`<p class="note">An audit item: the model decided it and its answers stand; a random ${(outcome.audit.rate * 100).toFixed(1)}% of decided items come here so that calibration gets labels that are not only the uncertain ones. Answer what the right answer is.</p>`}
    ${conflict === undefined ? null : html`<div class="conflict" role="alert">${conflict} <button onClick=${load}>Load the current version</button></div>`}
    ${amendNeeded === undefined ? null : html`<div class="conflict amend-needed" role="alert">${amendNeeded} <button onClick=${startAmend}>Amend</button></div>`}
    ${error === undefined ? null : html`<p class="error" role="alert">${error}</p>`}
    ${notice === undefined ? null : html`<p class="note notice" role="status">${notice}</p>`}
    ${outcome.reason === undefined ? null : html`<p class="note">Why it is here: ${outcome.reason}</p>`}
    <div class="item">
      <section class="state" aria-label="State">
        <h3>State</h3>
        ${view.state.complete ? html`<p class="note">The whole state${view.state.bytes === undefined ? "" : ` (${view.state.bytes} bytes)`}.</p>` : html`<p class="note">Only a preview of the state is kept (${view.state.bytes ?? "?"} bytes in all).</p>`}
        <pre tabindex="0">${prettyState(view.state.text)}</pre>
      </section>
      <section aria-label="Questions">
        ${
          props.reviewer === ""
            ? html`<${NameFirst}
                onName=${(name: string) => {
                  props.nameReviewer(name);
                  onNamed();
                }}
              />`
            : null
        }
        ${
          reviewedBefore && !amending
            ? html`<p><button class="amend" onClick=${startAmend}>Amend</button> <span class="note">change answers a person gave (recorded as an amendment)</span></p>`
            : null
        }
        ${
          amending
            ? html`<p class="note amending" role="status">Amending: pick the answers to change; the others stand. <button onClick=${cancelAmend}>Cancel amend</button></p>`
            : null
        }
        ${view.policy.questions.map(
          (question) =>
            html`<${QuestionCard}
              question=${question}
              answer=${outcome.answers?.[question.id]}
              position=${answerable.indexOf(question.id)}
              active=${active}
              picked=${picks[question.id]}
              onPick=${(label: string) => pick(question.id, label)}
            />`,
        )}
        ${
          answerable.length > 0
            ? html`${
                partialArmed && missing.length > 0
                  ? html`<p class="partial" role="status">${missing.join(", ")} ${missing.length === 1 ? "has" : "have"} no answer: the item stays in the queue for them. Press <kbd>Enter</kbd> again to save a partial review.</p>`
                  : null
              }<p class="actions"><button class="primary" disabled=${saving} onClick=${() => void submit()}>${partialArmed && missing.length > 0 ? "Save partial review" : amending ? "Save amendment" : "Submit review"}</button>
                ${amending ? null : html`<button type="button" class="skip" onClick=${() => void skip()}>Skip</button>`}
                <span class="note"> <kbd>1</kbd>–<kbd>9</kbd> pick, <kbd>J</kbd>/<kbd>K</kbd> move, <kbd>Enter</kbd> submits, <kbd>S</kbd> skips to the next item</span></p>`
            : html`<p class="note">Nothing to answer: this item is ${outcome.status}.</p>`
        }
        <${ItemHistory} view=${view} />
      </section>
    </div>`;
}
