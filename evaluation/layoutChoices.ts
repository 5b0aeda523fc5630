import { PROMPT_LAYOUTS, PROMPT_VERSION } from "../adapter/engine/prompt/renderPrompt.js";
import type { PromptLayout } from "../adapter/engine/types.js";

/** A prompt layout an evaluation can ask every question to be scored in: one of the engine's, or `auto`. */
export type LayoutChoice = PromptLayout | "auto";

/**
 * The layouts `jevbench` and `calibrate` accept (`--layout`): the engine's layouts, the default
 * first, then `auto` (the engine picks the cheaper from token counts, per batch).
 */
export const LAYOUT_CHOICES: readonly LayoutChoice[] = [...PROMPT_LAYOUTS, "auto"];

/** The layout evaluations score in when none is asked for: the engine's default, `direct-options-v1`. */
export const DEFAULT_LAYOUT: LayoutChoice = PROMPT_VERSION;

/** Whether a text names one of {@link LAYOUT_CHOICES}. */
export function isLayoutChoice(value: string): value is LayoutChoice {
  return (LAYOUT_CHOICES as readonly string[]).includes(value);
}

/**
 * Counts the `prompt_version` each answer was scored with (what the engine returned, which tells
 * what `auto` chose), by version, in first-seen order. Answers without one are not counted.
 *
 * @example
 * countPromptVersions(["question-first-v1", undefined, "question-first-v1"]) // { "question-first-v1": 2 }
 */
export function countPromptVersions(versions: Iterable<string | undefined>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const version of versions) if (version !== undefined) counts[version] = (counts[version] ?? 0) + 1;
  return counts;
}

/**
 * Prompt-version counts as one line of a report: `question-first-v1 × 3, direct-options-v1 × 1`,
 * or `none` when nothing was answered.
 */
export function formatPromptVersions(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? "none" : entries.map(([version, n]) => `${version} × ${n}`).join(", ");
}
