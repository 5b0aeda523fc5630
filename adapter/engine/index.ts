// The engine's public names. `Scorer` (the facade; errors and types beside it) runs the steps in
// the sub-folders, whose units are internal (import them by file in tests only):
// - builds/: which llama.cpp binary; building one from source and proving it runs here;
// - model/: opening and hashing the GGUF, its identity, label alphabet and llama.cpp's log;
// - prompt/: batch checks, rendering, layouts and rotations, tokens (PROMPTS.md);
// - worker/: prompt preparation on a thread of its own;
// - sequence/: the live sequences: chunked evaluation, lanes, prefix reuse, sampler memory;
// - cache/: saved states on disk and their bound;
// - readout/: slot distributions to results, rotations combined;
// - chat/: the chat path (prepare, generate);
// - systemOne/: the System One API over the engine's batch.

export {
  cmakeOptionsOf,
  LLAMA_BUILDS,
  type LlamaBuild,
  type SourceLlamaBuild,
} from "./builds/llamaBuilds.js";
export { type CacheStatsJson, cacheStatsToJson } from "./cache/cacheStatsToJson.js";
export { defaultCacheBytes } from "./cache/defaultCacheBytes.js";
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
export type { LabelAlphabet } from "./model/labelAlphabet.js";
export { modelNameOf } from "./model/modelNameOf.js";
export { sha256File } from "./model/sha256File.js";
export { pythonJsonDumps, pythonJsonString } from "./prompt/pythonJson.js";
export {
  ASSISTANT_OPENING,
  CLOSING_PREFIX,
  PROMPT_LAYOUTS,
  PROMPT_VERSION,
  QUESTION_FIRST_VERSION,
  type RenderedPrompt,
  renderPrompt,
  SYSTEM_TEXT,
} from "./prompt/renderPrompt.js";
export type { SlotDistribution } from "./readout/slotDistribution.js";
export { Scorer, type ScorerOptions } from "./Scorer.js";
export { answerSystemOne, labelsOf, NOUL_OPTION_IDS, systemOneToBatch } from "./systemOne/SystemOne.js";
export type * from "./systemOne/systemOneTypes.js";
export type * from "./types.js";
