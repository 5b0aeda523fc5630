import { JsonText } from "../../contract/wire/JsonText.js";
import type { DecisionBatch, DecisionState } from "../engine/types.js";
import type { EngineFieldMap } from "./engineFieldMap.js";
import type { Problem, RequestLimits } from "./types.js";

/** Options of {@link boundPromptWork}. */
export interface PromptWorkBounds {
  /** Longest state in UTF-8 bytes: `maxPromptTokens` × `maxStateBytesPerToken`. */
  maxStateBytes: number;
}

/**
 * Cheap lower bounds on a batch's token counts, checked before anything is rendered or tokenized
 * (rendering and tokenizing run on the event loop: a 4 MB state took 15.7 s, 3 decisions × 255
 * options × 255 rotations 23.2 s, with `/ping` unanswered). Each costs a pass over the request's
 * sizes, never over its text:
 *
 * - the state's UTF-8 bytes against `maxStateBytes` (no prompt is shorter than its state in tokens
 *   × bytes per token);
 * - each question's options against `maxPromptTokens` (every option is at least one token of its
 *   prompt), and options × rotations over all questions against `maxRequestTokens` (every rotation
 *   of a debiased question is a prompt part listing every option).
 *
 * What passes is still measured exactly (`engine.measure`) against the same limits.
 *
 * @returns one problem per bound exceeded, named in the caller's fields.
 */
export function boundPromptWork(
  batch: DecisionBatch,
  fields: EngineFieldMap,
  limits: Pick<RequestLimits, "maxPromptTokens" | "maxRequestTokens">,
  bounds: PromptWorkBounds,
): Problem[] {
  const problems: Problem[] = [];
  const stateBytes = bytesOf(batch.state);
  if (stateBytes > bounds.maxStateBytes) {
    problems.push({
      field: fields.state,
      message: `the state is ${stateBytes} bytes, over the ${bounds.maxStateBytes} bytes that fit in a prompt of ${limits.maxPromptTokens} tokens; send a shorter state`,
    });
  }
  let requestTokens = 0;
  batch.questions.forEach((question, index) => {
    const options = question.options.length;
    if (options > limits.maxPromptTokens) {
      problems.push({
        field: fields.question(index),
        message: `the prompt needs at least ${options} tokens, over the limit of ${limits.maxPromptTokens} tokens per prompt`,
      });
    }
    const rotations = question.debias === "cyclic" ? (question.debiasRotations ?? options) : 1;
    requestTokens += options * rotations;
  });
  if (requestTokens > limits.maxRequestTokens) {
    problems.push({
      field: fields.request,
      message: `the request needs at least ${requestTokens} tokens (options × rotations of each question), over the limit of ${limits.maxRequestTokens} tokens per request`,
    });
  }
  return problems;
}

/** UTF-8 bytes of a state as sent: its text, or its JSON. */
function bytesOf(state: DecisionState): number {
  if (typeof state === "string") return Buffer.byteLength(state, "utf8");
  if (state instanceof JsonText) return Buffer.byteLength(state.text, "utf8");
  return Buffer.byteLength(JSON.stringify(state), "utf8");
}
