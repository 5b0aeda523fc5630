/**
 * Model files: generated GGUF models for tests and benchmarks (tiny llama/qwen3/qwen35 and a
 * Qwen3-0.6B shape twin), their cache, GGUF files pulled from a hub (pinned to a commit, verified),
 * and `model-manifest.json` checks.
 */

export type { CreateModelWriterOptions, ModelWriterPlan } from "./createModelWriter.js";
export { createModelWriter } from "./createModelWriter.js";
export type {
  DownloadedModel,
  DownloadModelOptions,
  DownloadProgress,
  ModelCatalogueEntry,
} from "./downloadModel.js";
export { downloadModel, MODEL_CATALOGUE } from "./downloadModel.js";
export type { ModelHubFailure, ModelPackageFailure } from "./errors.js";
export {
  ModelChecksumMismatchError,
  ModelDownloadError,
  ModelFileError,
  ModelGenerationError,
  ModelHubError,
  ModelManifestError,
  ModelManifestMismatchError,
  ModelPackageError,
} from "./errors.js";
export type { EnsureGeneratedModelOptions, GeneratedModel, GenerateModelOptions } from "./generateModel.js";
export {
  defaultModelCacheDir,
  ensureGeneratedModel,
  generatedModelFileName,
  generateModel,
} from "./generateModel.js";
export type {
  HubClientOptions,
  HubDownload,
  HubFileMetadata,
  HubRevisionInfo,
  HubSibling,
} from "./HubClient.js";
export { DEFAULT_HUB_ENDPOINT, HubClient } from "./HubClient.js";
export type { HubModelRef } from "./hubModelRef.js";
export {
  DEFAULT_HUB_REVISION,
  formatHubModelUri,
  HUB_URI_SCHEME,
  hubModelRef,
  isHubModelUri,
  parseHubModelUri,
} from "./hubModelRef.js";
export type { HybridSpec, ModelKind, ModelKindSpec } from "./modelKinds.js";
export {
  DEFAULT_MODEL_SEED,
  getModelKindSpec,
  isModelKind,
  MODEL_GENERATOR_VERSION,
  MODEL_KIND_SPECS,
  MODEL_KINDS,
} from "./modelKinds.js";
export type {
  ModelManifest,
  ModelManifestHubFields,
  ModelManifestVerification,
  WriteModelManifestOptions,
} from "./modelManifest.js";
export {
  MODEL_MANIFEST_FILE_NAME,
  modelManifestPath,
  readModelManifest,
  sha256File,
  verifyModelManifest,
  writeModelManifest,
  writeModelManifestFile,
} from "./modelManifest.js";
export type { MetadataEntry } from "./modelMetadata.js";
export { GENERATOR_VERSION_KEY, modelMetadata, vocabMetadata } from "./modelMetadata.js";
export type { PackagedModel, PackageModelOptions } from "./packageModel.js";
export { packageModel } from "./packageModel.js";
export { packageRoot } from "./packageRoot.js";
export type { PulledModel, PullHubModelOptions, PullProgress } from "./pullHubModel.js";
export { defaultHubCacheDir, hubCacheFolder, PARTIAL_SUFFIX, pullHubModel } from "./pullHubModel.js";
export {
  loadQwen3Vocab,
  QWEN3_ENDOFTEXT_ID,
  QWEN3_IM_END_ID,
  QWEN3_PADDED_VOCAB_SIZE,
  qwen3TokenizerJsonPath,
} from "./qwen3Vocab.js";
export { readGeneratorVersion } from "./readGeneratorVersion.js";
export { buildSentencePieceVocab } from "./sentencePieceVocab.js";
export type { TensorInit, TensorPlan } from "./tensorPlan.js";
export { countParameters, planModelTensors } from "./tensorPlan.js";
export type { GgufVocab } from "./types.js";
export { CHATML_TEMPLATE, TokenType } from "./types.js";
