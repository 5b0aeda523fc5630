// The engine's public names. Its units (prompt preparation, chunked sequence, slot reader, chat
// generation) are internal: import them by file in tests only.
export { type CacheStatsJson, cacheStatsToJson } from "./cacheStatsToJson.js";
export { defaultCacheBytes } from "./defaultCacheBytes.js";
export type { EngineLogger, EngineLogLevel } from "./EngineLogger.js";
export {
  AbortedError,
  DecisionEngineError,
  EngineDisposedError,
  EngineFailureError,
  type EnginePathSegment,
  GpuUnavailableError,
  InvalidBatchError,
  InvalidDecisionError,
  ModelLoadError,
  ReservedTokenError,
  TokenBudgetError,
  TooManyOptionsError,
} from "./errors.js";
export type { LabelAlphabet } from "./labelAlphabet.js";
export { cmakeOptionsOf, LLAMA_BUILDS, type LlamaBuild, type SourceLlamaBuild } from "./llamaBuilds.js";
export { modelNameOf } from "./modelNameOf.js";
export { pythonJsonDumps, pythonJsonString } from "./pythonJson.js";
export {
  ASSISTANT_OPENING,
  CLOSING_PREFIX,
  PROMPT_LAYOUTS,
  PROMPT_VERSION,
  QUESTION_FIRST_VERSION,
  type RenderedPrompt,
  renderPrompt,
  SYSTEM_TEXT,
} from "./renderPrompt.js";
export { Scorer, type ScorerOptions } from "./Scorer.js";
export { answerSystemOne, labelsOf, NOUL_OPTION_IDS, systemOneToBatch } from "./SystemOne.js";
export { sha256File } from "./sha256File.js";
export type { SlotDistribution } from "./slotDistribution.js";
export type * from "./systemOneTypes.js";
export type * from "./types.js";
