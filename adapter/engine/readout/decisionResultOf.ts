import type { PreparedPrompt } from "../prompt/preparePrompts.js";
import type { DecisionResult, DecisionTiming, ReadoutInfo } from "../types.js";
import type { SlotReadout } from "./SlotReader.js";

/** What one scored question produced besides its slot readout. */
export interface ScoredQuestion {
  prompt: PreparedPrompt;
  readout: SlotReadout;
  /** The `model` field (`modelNameOf` of the identity). */
  model: string;
  /** Tokens reused rather than evaluated. */
  cachedTokens: number;
  timing: DecisionTiming;
}

/**
 * The SemIf-shaped result of one prompt: arrays in the order its options were offered (the
 * question's own order unless rotated for debiasing), `readout` saying what was read.
 */
export function decisionResultOf(scored: ScoredQuestion): DecisionResult {
  const { prompt, readout } = scored;
  const { slots, full } = readout;
  const temperature = prompt.question.temperature ?? 1;
  const info: ReadoutInfo = {
    mode: full ? "full-vocabulary" : "label-only",
    option_logits: full
      ? "log-probability (full vocabulary, position of the answer)"
      : "log-probability relative to the slot set (softmax over slots)",
    labels: prompt.labels,
    label_tokens: prompt.labelTokens,
    temperature,
    slot_mass: full ? slots.slotMass : null,
  };
  return {
    id: prompt.question.id,
    option_ids: prompt.options.map((option) => option.id),
    probabilities: slots.probabilities,
    option_logits: slots.scores,
    prompt_sha256: prompt.rendered.sha256,
    prompt_version: prompt.rendered.layout,
    readout: info,
    input_tokens: prompt.tokens.length,
    evaluated_tokens: prompt.tokens.length - scored.cachedTokens,
    cached_tokens: scored.cachedTokens,
    timing: scored.timing,
    model: scored.model,
  };
}
