import type { PromptLayout } from "../types.js";
import { PROMPT_VERSION, QUESTION_FIRST_VERSION } from "./renderPrompt.js";

/** What one question of a batch costs in each layout, in evaluated tokens per prompt. */
export interface LayoutCost {
  /** The layout asked for; `auto` is decided here. */
  layout: PromptLayout | "auto";
  /** State first: the question's own part after the shared state (criterion, options, closing). */
  stateFirstTokens: number;
  /** Question first: the item's own part after the cached question prefix (state and closing). */
  questionFirstTokens: number;
  /** Prompts the question is scored with (its rotations when debiased; else 1). */
  prompts: number;
}

/**
 * Decides the layout of every `auto` question of a batch so that the batch evaluates the fewest
 * tokens, assuming every question prefix of `question-first-v1` is cached (the case it is for: one
 * question asked of many items). State first pays the state once for all its questions plus each
 * one's own part; question first pays, per question, its item part (the state and a short
 * closing). So with `S` the state's tokens, an `auto` question goes question first when its item
 * part is smaller than its own state-first part — unless no question is state first at all, in
 * which case the state is paid once more if any goes state first; both totals are compared and the
 * smaller wins. Ties go to `direct-options-v1` (the default).
 *
 * @param stateTokens tokens of the state in the state-first layout (paid once when any question
 *   is state first).
 * @returns the layout of each question, in order (the fixed ones as given).
 */
export function chooseAutoLayouts(questions: readonly LayoutCost[], stateTokens: number): PromptLayout[] {
  const fixedStateFirst = questions.some((question) => question.layout === PROMPT_VERSION);
  const cheaper = questions.map((question): PromptLayout => {
    if (question.layout !== "auto") return question.layout;
    return question.questionFirstTokens < question.stateFirstTokens ? QUESTION_FIRST_VERSION : PROMPT_VERSION;
  });
  if (fixedStateFirst || !cheaper.includes(PROMPT_VERSION)) return cheaper;
  // Only auto questions chose state first: compare that with sending every auto question first.
  const total = (layouts: readonly PromptLayout[]): number =>
    (layouts.includes(PROMPT_VERSION) ? stateTokens : 0) +
    questions.reduce((sum, question, index) => {
      const own =
        layouts[index] === PROMPT_VERSION ? question.stateFirstTokens : question.questionFirstTokens;
      return sum + own * question.prompts;
    }, 0);
  const allQuestionFirst = questions.map(
    (question): PromptLayout => (question.layout === "auto" ? QUESTION_FIRST_VERSION : question.layout),
  );
  return total(allQuestionFirst) < total(cheaper) ? allQuestionFirst : cheaper;
}
