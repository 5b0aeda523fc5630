import { createHash } from "node:crypto";
import type { DecisionOption, DecisionState, PromptLayout } from "../types.js";
import { pythonJsonDumps } from "./pythonJson.js";

/** Name of the default prompt format (state first), reported with every result rendered in it. */
export const PROMPT_VERSION = "direct-options-v1";

/** Name of the question-first prompt format (criterion and options before the evidence). */
export const QUESTION_FIRST_VERSION = "question-first-v1";

/** Every prompt layout the engine renders, the default first. */
export const PROMPT_LAYOUTS: readonly PromptLayout[] = [PROMPT_VERSION, QUESTION_FIRST_VERSION];

/** The system text of both layouts, byte-identical to the SemIf sample's. */
export const SYSTEM_TEXT =
  "Apply the supplied criterion to the supplied evidence. Choose exactly one listed option. Respond with only its uppercase letter, with no explanation or reasoning.";

/** ChatML opening of an assistant turn with thinking disabled, as Qwen3's template renders it. */
export const ASSISTANT_OPENING = "<|im_start|>assistant\n<think>\n\n</think>\n\n";

/**
 * The text that follows the state in every `direct-options-v1` prompt, whatever the question: the
 * question-independent part kept cached with the state (as far as its tokens are a prefix of the
 * prompt's own, see `preparePrompts`).
 */
export const CLOSING_PREFIX = ', "criterion": ';

const SYSTEM_TURN = `<|im_start|>system\n${SYSTEM_TEXT}<|im_end|>\n<|im_start|>user\n`;
const EVIDENCE_OPENING = '{"evidence": ';
const CRITERION_OPENING = '{"criterion": ';
const EVIDENCE_KEY = ', "evidence": ';
const CLOSING = `<|im_end|>\n${ASSISTANT_OPENING}`;

/** A rendered decision prompt and the text boundaries the engine caches at. */
export interface RenderedPrompt {
  /** The whole prompt; the answer label is the next token after it. */
  text: string;
  /** The layout it was rendered in (its `prompt_version`). */
  layout: PromptLayout;
  /**
   * Everything before the user turn's JSON (the system turn and the user turn's opening): the same
   * in every prompt of either layout.
   */
  preamble: string;
  /**
   * The prefix other prompts can share with this one, so the evaluation of it is reused:
   * `direct-options-v1`: the preamble, the state and {@link CLOSING_PREFIX} (the same for every
   * question on one state); `question-first-v1`: the preamble, the criterion, the options and
   * `, "evidence": ` (the same for every state asked this question with these options).
   */
  sharedPrefix: string;
  /** The state as the prompt shows it (Python's `json.dumps` of it). */
  state: string;
  /** SHA-256 (hex) of the UTF-8 text. */
  sha256: string;
}

/**
 * Renders a decision prompt in one of two layouts. Both are the SemIf system text, then a user turn
 * holding one JSON object serialised as Python's `json.dumps(…, ensure_ascii=False)` does
 * (separators `", "` and `": "`, non-ASCII kept, keys in the order below), then an assistant turn
 * with thinking disabled:
 *
 * `<|im_start|>system\n{SYSTEM_TEXT}<|im_end|>\n<|im_start|>user\n{USER}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n`
 *
 * - `direct-options-v1` (the default, byte-compatible with SemIf): USER =
 *   `{"evidence": state, "criterion": question, "options": [{"letter", "description"}, …]}`. Every
 *   question on one state shares the prefix through `, "criterion": `.
 * - `question-first-v1`: USER = `{"criterion": question, "options": […], "evidence": state}` — the
 *   same keys, the evidence last, so every item asked one question shares the prefix through
 *   `, "evidence": `; only the state and the closing `}<|im_end|>…` are an item's own. Not SemIf's
 *   format: its accuracy may differ, so it is never a default (see PROMPTS.md).
 *
 * Option ids are never shown to the model; option i is offered under `labels[i]`. A `JsonText`
 * state is rendered from its text (`toPython()`), so a `direct-options-v1` prompt and its `sha256`
 * equal SemIf's for every JSON state; a plain object or array is rendered from its value.
 * `sha256` is the SHA-256 of the prompt's UTF-8 bytes, the `prompt_sha256` of results.
 *
 * @param labels the answer label of each option, in option order (A, B, C, … for a normal call).
 * @param layout the prompt format. Default `direct-options-v1`.
 * @throws RangeError when there are fewer labels than options.
 * @example
 * renderPrompt("Charged twice", "Which team?", options, ["A", "B"], "question-first-v1").text
 * // …user\n{"criterion": "Which team?", "options": […], "evidence": "Charged twice"}<|im_end|>…
 */
export function renderPrompt(
  state: DecisionState,
  question: string,
  options: readonly DecisionOption[],
  labels: readonly string[],
  layout: PromptLayout = PROMPT_VERSION,
): RenderedPrompt {
  const stateText = pythonJsonDumps(state);
  const offered = offeredOptions(options, labels);
  const criterion = pythonJsonDumps(question);
  let preamble: string;
  let sharedPrefix: string;
  let text: string;
  if (layout === QUESTION_FIRST_VERSION) {
    preamble = SYSTEM_TURN;
    sharedPrefix = `${preamble}${CRITERION_OPENING}${criterion}, "options": ${offered}${EVIDENCE_KEY}`;
    text = `${sharedPrefix}${stateText}}${CLOSING}`;
  } else {
    preamble = SYSTEM_TURN;
    sharedPrefix = preamble + EVIDENCE_OPENING + stateText + CLOSING_PREFIX;
    text = `${sharedPrefix}${criterion}, "options": ${offered}}${CLOSING}`;
  }
  return {
    text,
    layout,
    preamble,
    sharedPrefix,
    state: stateText,
    sha256: createHash("sha256").update(text, "utf8").digest("hex"),
  };
}

/**
 * The user turn's text alone (the JSON object) of a `direct-options-v1` prompt, as sent in the
 * user message of the standard chat path: `{"evidence": …, "criterion": …, "options": […]}`.
 */
export function renderUserText(
  state: DecisionState,
  question: string,
  options: readonly DecisionOption[],
  labels: readonly string[],
): string {
  const criterion = pythonJsonDumps(question);
  return `${EVIDENCE_OPENING}${pythonJsonDumps(state)}${CLOSING_PREFIX}${criterion}, "options": ${offeredOptions(options, labels)}}`;
}

/** The options as offered: `[{"letter": "A", "description": …}, …]` in Python's JSON. */
function offeredOptions(options: readonly DecisionOption[], labels: readonly string[]): string {
  if (labels.length < options.length) {
    throw new RangeError(`${options.length} options need ${options.length} labels, got ${labels.length}`);
  }
  return pythonJsonDumps(
    options.map((option, index) => ({ letter: labels[index] ?? "", description: option.description })),
  );
}
