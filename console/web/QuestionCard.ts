import { html } from "htm/preact";
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
 * the threshold marked (buttons 1–9 when it needs an answer), its threshold and fallback.
 */
export function QuestionCard({ question, answer, position, active, picked, onPick }: QuestionCardProps) {
  const open = position >= 0;
  return html`<div class=${`question ${open && position === active ? "active" : ""}`} data-question=${question.id}>
      <h3>${question.id} <span class="note">${answer?.source ?? ""}${open ? " — needs your answer" : ""}</span></h3>
      <p class="note">${question.instructions}</p>
      <div class="bars" role=${open ? "radiogroup" : "list"} aria-label=${`${question.id} options`}>
        ${question.options.map((option, index) => {
          const p = answer?.distribution[option.label] ?? 0;
          const isPicked = picked === option.label;
          const stands = String(answer?.answer) === option.label;
          const content = html`<span class="key">${index < 9 && open ? index + 1 : ""}</span>
            <span>${option.label}${stands ? " ✓" : ""}</span>
            <span class="bar" aria-hidden="true"><span style=${{ width: `${(p * 100).toFixed(1)}%` }}></span><i style=${{ left: `${question.threshold * 100}%` }}></i></span>
            <span>${(p * 100).toFixed(1)}%</span>`;
          return open
            ? html`<button type="button" role="radio" aria-checked=${isPicked} class=${`choice ${isPicked ? "picked" : ""}`} title=${option.description ?? ""}
                aria-label=${`${option.label}, model ${(p * 100).toFixed(1)} percent`} onClick=${() => onPick(option.label)}>${content}</button>`
            : html`<div class="choice" role="listitem" title=${option.description ?? ""}>${content}</div>`;
        })}
      </div>
      <p class="note">threshold ${question.threshold} (marked) · fallback ${String(question.fallback)}${answer?.model_answer === undefined ? "" : ` · model said ${String(answer.model_answer)}`}</p>
    </div>`;
}
