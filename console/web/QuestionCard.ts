import { html } from "htm/preact";
import { breakable } from "./shareList.js";
import type { ItemView } from "./types.js";

/** What {@link QuestionCard} draws. */
export interface QuestionCardProps {
  question: ItemView["policy"]["questions"][number];
  /** The outcome's answer to it, if any. */
  answer: NonNullable<ItemView["outcome"]["answers"]>[string] | undefined;
  /** Its place among the answerable questions; -1 when a person need not answer it. */
  position: number;
  /** The place of the question in focus among the answerable ones. */
  active: number;
  /** The option picked so far, if any. */
  picked: string | undefined;
  onPick: (label: string) => void;
}

/**
 * One question of an item: its instructions, each option as a bar of the model's probability with
 * the threshold marked (buttons, keys 1–9, when it needs an answer) and what the option means (the
 * policy's criteria) written under it, its threshold and fallback. The card in focus can take the
 * page's focus (`tabindex=-1`), so a screen reader follows the keys.
 */
export function QuestionCard({ question, answer, position, active, picked, onPick }: QuestionCardProps) {
  const open = position >= 0;
  const headingId = `question-${question.id}`;
  return html`<div class=${`question ${open && position === active ? "active" : ""}`} data-question=${question.id} tabindex=${open ? -1 : undefined} role="group" aria-labelledby=${headingId}>
      <h3 id=${headingId}>${question.id} <span class="note">${answer?.source ?? ""}${open ? " — needs your answer" : ""}</span></h3>
      <p class="note">${question.instructions}</p>
      <div class="bars" role=${open ? "radiogroup" : "list"} aria-label=${`${question.id} options`}>
        ${question.options.map((option, index) => {
          const p = answer?.distribution[option.label] ?? 0;
          const isPicked = picked === option.label;
          const stands = String(answer?.answer) === option.label;
          const criteriaId = `criteria-${question.id}-${index}`;
          const content = html`<span class="key">${index < 9 && open ? index + 1 : ""}</span>
            <span class="option-label">${breakable(option.label)}${stands ? " ✓" : ""}</span>
            <span class="bar" aria-hidden="true"><span style=${{ width: `${(p * 100).toFixed(1)}%` }}></span><i style=${{ left: `${question.threshold * 100}%` }}></i></span>
            <span class="probability">${(p * 100).toFixed(1)}%</span>
            ${option.description ? html`<span class="criteria" id=${criteriaId}>${option.description}</span>` : null}`;
          const describedBy = option.description ? criteriaId : undefined;
          return open
            ? html`<button type="button" role="radio" aria-checked=${isPicked} class=${`choice ${isPicked ? "picked" : ""}`}
                aria-label=${`${option.label}, model ${(p * 100).toFixed(1)} percent`} aria-describedby=${describedBy} onClick=${() => onPick(option.label)}>${content}</button>`
            : html`<div class="choice" role="listitem">${content}</div>`;
        })}
      </div>
      <p class="note">threshold ${question.threshold} (marked) · fallback ${String(question.fallback)}${answer?.model_answer === undefined ? "" : ` · model said ${String(answer.model_answer)}`}</p>
    </div>`;
}
