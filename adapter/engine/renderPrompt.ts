import { createHash } from "node:crypto";
import { pythonJsonDumps } from "./pythonJson.js";
import type { DecisionOption, DecisionState } from "./types.js";

/** Name of the prompt format, reported with every result. */
export const PROMPT_VERSION = "direct-options-v1";

/** The system text of `direct-options-v1`, byte-identical to the SemIf sample's. */
export const SYSTEM_TEXT =
  "Apply the supplied criterion to the supplied evidence. Choose exactly one listed option. Respond with only its uppercase letter, with no explanation or reasoning.";

/** ChatML opening of an assistant turn with thinking disabled, as Qwen3's template renders it. */
export const ASSISTANT_OPENING = "<|im_start|>assistant\n<think>\n\n</think>\n\n";

const EVIDENCE_OPENING = '{"evidence": ';

/** A rendered decision prompt and the text boundaries the engine caches at. */
export interface RenderedPrompt {
  /** The whole prompt; the answer label is the next token after it. */
  text: string;
  /** Everything before the state: the same for every decision (system turn and the user turn's opening). */
  preamble: string;
  /** Everything up to and including the serialised state: the same for every question on one state. */
  statePrefix: string;
  /** SHA-256 (hex) of the UTF-8 text. */
  sha256: string;
}

/**
 * Renders the `direct-options-v1` prompt: the SemIf system text, then a user turn holding
 * `{"evidence": state, "criterion": question, "options": [{"letter", "description"}, …]}` serialised
 * as Python's `json.dumps(…, ensure_ascii=False)` does, then an assistant turn with thinking
 * disabled. Option ids are never shown to the model; option i is offered under `labels[i]`.
 * A `JsonText` state is rendered from its text (`toPython()`), so the prompt and its
 * `sha256` equal SemIf's for every JSON state; a plain object or array is rendered from its value.
 *
 * @param labels the answer label of each option, in option order (A, B, C, … for a normal call).
 * @throws RangeError when there are fewer labels than options.
 */
export function renderPrompt(
  state: DecisionState,
  question: string,
  options: readonly DecisionOption[],
  labels: readonly string[],
): RenderedPrompt {
  const preamble = `<|im_start|>system\n${SYSTEM_TEXT}<|im_end|>\n<|im_start|>user\n${EVIDENCE_OPENING}`;
  const statePrefix = preamble + pythonJsonDumps(state);
  const text = `${statePrefix}${questionTail(question, options, labels)}<|im_end|>\n${ASSISTANT_OPENING}`;
  return { text, preamble, statePrefix, sha256: createHash("sha256").update(text, "utf8").digest("hex") };
}

/**
 * The user turn's text alone (the JSON object), as sent in the user message of the standard
 * chat path: `{"evidence": …, "criterion": …, "options": […]}`.
 */
export function renderUserText(
  state: DecisionState,
  question: string,
  options: readonly DecisionOption[],
  labels: readonly string[],
): string {
  return `${EVIDENCE_OPENING}${pythonJsonDumps(state)}${questionTail(question, options, labels)}`;
}

function questionTail(
  question: string,
  options: readonly DecisionOption[],
  labels: readonly string[],
): string {
  if (labels.length < options.length) {
    throw new RangeError(`${options.length} options need ${options.length} labels, got ${labels.length}`);
  }
  const offered = options.map((option, index) => ({
    letter: labels[index] ?? "",
    description: option.description,
  }));
  return `, "criterion": ${pythonJsonDumps(question)}, "options": ${pythonJsonDumps(offered)}}`;
}
