export { commonPrefixLength } from "./commonPrefixLength.js";
export {
  AbortedError,
  DecisionEngineError,
  EngineDisposedError,
  GpuUnavailableError,
  InvalidDecisionError,
  ModelLoadError,
  ReservedTokenError,
  TokenBudgetError,
  TooManyOptionsError,
} from "./errors.js";
export { candidateLabels, deriveLabelAlphabet, type LabelAlphabet } from "./labelAlphabet.js";
export { pythonJsonDumps, pythonJsonString } from "./pythonJson.js";
export {
  ASSISTANT_OPENING,
  PROMPT_VERSION,
  type RenderedPrompt,
  renderPrompt,
  SYSTEM_TEXT,
} from "./renderPrompt.js";
export { Scorer, type ScorerOptions } from "./Scorer.js";
export { SerialQueue } from "./SerialQueue.js";
export { answerSystemOne, labelsOf, NOUL_OPTION_IDS, systemOneToBatch } from "./SystemOne.js";
export { sha256File } from "./sha256File.js";
export { PROBABILITY_FLOOR, readSlots, type SlotDistribution, softmax } from "./slotDistribution.js";
export type * from "./systemOneTypes.js";
export type * from "./types.js";
