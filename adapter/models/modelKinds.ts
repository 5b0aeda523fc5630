import type { GgmlTypeName, LlamaFileTypeName } from "../gguf/index.js";
import { ModelGenerationError } from "./errors.js";

/** The models this project can generate, smallest first. */
export const MODEL_KINDS = ["tiny-llama", "tiny-qwen3", "tiny-qwen35", "qwen3-0.6b-shape"] as const;

/** Name of a generated model kind. */
export type ModelKind = (typeof MODEL_KINDS)[number];

/** Seed used when none is given: the same kind and seed always give the same bytes. */
export const DEFAULT_MODEL_SEED = 42;

/**
 * Version of the generator, written as `decisions.generator_version`. Bump it whenever a change
 * alters the bytes generated for a kind and seed (vocabulary, metadata, init, layout): cached models
 * with another version are regenerated.
 */
export const MODEL_GENERATOR_VERSION = 1;

/** Gated DeltaNet (linear attention) settings of a hybrid `qwen35` model (`qwen35.ssm.*`). */
export interface HybridSpec {
  /** Every Nth layer is full attention, the others are recurrent (`full_attention_interval`). */
  fullAttentionInterval: number;
  /** Width of the causal convolution (`ssm.conv_kernel`). */
  convKernel: number;
  /** Head size of keys and values (`ssm.state_size`). */
  stateSize: number;
  /** Number of key heads (`ssm.group_count`). */
  groupCount: number;
  /** Number of value heads (`ssm.time_step_rank`). */
  timeStepRank: number;
  /** Value width, `stateSize * timeStepRank` (`ssm.inner_size`). */
  innerSize: number;
  /** Rotated dimensions of each attention head (`rope.dimension_count`); partial rotary embedding. */
  ropeDimensionCount: number;
  /** Interleaved M-RoPE sections (`rope.dimension_sections`), summing to half the rotated dimensions. */
  ropeSections: readonly [number, number, number, number];
}

/** Everything needed to generate one kind of model. */
export interface ModelKindSpec {
  kind: ModelKind;
  /** One line for `decisions models list`. */
  description: string;
  /** `general.architecture`. */
  architecture: "llama" | "qwen3" | "qwen35";
  /** Which tokenizer the model carries. */
  vocabulary: "sentencepiece" | "qwen3";
  /** Element type of the weight matrices (one-dimensional tensors are always F32). */
  weightType: GgmlTypeName;
  /** `general.file_type`, consistent with {@link weightType}. */
  fileType: LlamaFileTypeName;
  contextLength: number;
  embeddingLength: number;
  blockCount: number;
  feedForwardLength: number;
  headCount: number;
  headCountKv: number;
  /** Size of one attention head; written as `attention.key_length`/`value_length` for Qwen models. */
  headDim: number;
  ropeFreqBase: number;
  rmsNormEps: number;
  /** No `output` tensor: the output projection reuses `token_embd`. */
  tiedEmbeddings: boolean;
  /** Standard deviation of the token embeddings (small, so labels keep probability > 0). */
  embeddingStd: number;
  /** Standard deviation of the other weight matrices. */
  weightStd: number;
  /** Present for hybrid (recurrent + attention) models. */
  hybrid?: HybridSpec;
  /** Hundreds of megabytes: generated on demand, never by the test suite. */
  large: boolean;
}

/** The specification of every kind. */
export const MODEL_KIND_SPECS: Readonly<Record<ModelKind, ModelKindSpec>> = {
  "tiny-llama": {
    kind: "tiny-llama",
    description: "llama, 2 blocks, 64 wide, SentencePiece vocabulary with ChatML markers, F32 (4 MB)",
    architecture: "llama",
    vocabulary: "sentencepiece",
    weightType: "F32",
    fileType: "ALL_F32",
    contextLength: 4096,
    embeddingLength: 64,
    blockCount: 2,
    feedForwardLength: 128,
    headCount: 4,
    headCountKv: 2,
    headDim: 16,
    ropeFreqBase: 10_000,
    rmsNormEps: 1e-5,
    tiedEmbeddings: false,
    embeddingStd: 0.05,
    weightStd: 0.05,
    large: false,
  },
  "tiny-qwen3": {
    kind: "tiny-qwen3",
    description: "qwen3, 2 blocks, 64 wide, head dim 32, real Qwen3 vocabulary, Q8_0 (16 MB)",
    architecture: "qwen3",
    vocabulary: "qwen3",
    weightType: "Q8_0",
    fileType: "MOSTLY_Q8_0",
    contextLength: 4096,
    embeddingLength: 64,
    blockCount: 2,
    feedForwardLength: 128,
    headCount: 4,
    headCountKv: 2,
    headDim: 32,
    ropeFreqBase: 1_000_000,
    rmsNormEps: 1e-6,
    tiedEmbeddings: true,
    embeddingStd: 0.05,
    weightStd: 0.05,
    large: false,
  },
  "tiny-qwen35": {
    kind: "tiny-qwen35",
    description:
      "qwen35 hybrid (3 Gated DeltaNet + 1 attention layer), 64 wide, real Qwen3 vocabulary, F16; state cannot be truncated (26 MB)",
    architecture: "qwen35",
    vocabulary: "qwen3",
    weightType: "F16",
    fileType: "MOSTLY_F16",
    contextLength: 4096,
    embeddingLength: 64,
    blockCount: 4,
    feedForwardLength: 128,
    headCount: 4,
    headCountKv: 2,
    headDim: 16,
    ropeFreqBase: 10_000_000,
    rmsNormEps: 1e-6,
    tiedEmbeddings: true,
    embeddingStd: 0.05,
    weightStd: 0.05,
    hybrid: {
      fullAttentionInterval: 4,
      convKernel: 4,
      stateSize: 16,
      groupCount: 2,
      timeStepRank: 4,
      innerSize: 64,
      ropeDimensionCount: 8,
      ropeSections: [2, 1, 1, 0],
    },
    large: false,
  },
  "qwen3-0.6b-shape": {
    kind: "qwen3-0.6b-shape",
    description:
      "Qwen3-0.6B dimensions (28 blocks, 1024 wide, 16/8 heads of 128), random Q8_0 weights, real vocabulary (640 MB)",
    architecture: "qwen3",
    vocabulary: "qwen3",
    weightType: "Q8_0",
    fileType: "MOSTLY_Q8_0",
    contextLength: 40_960,
    embeddingLength: 1024,
    blockCount: 28,
    feedForwardLength: 3072,
    headCount: 16,
    headCountKv: 8,
    headDim: 128,
    ropeFreqBase: 1_000_000,
    rmsNormEps: 1e-6,
    tiedEmbeddings: true,
    embeddingStd: 0.05,
    weightStd: 0.02,
    large: true,
  },
};

/** Whether `value` names a model kind. */
export function isModelKind(value: string): value is ModelKind {
  return (MODEL_KINDS as readonly string[]).includes(value);
}

/**
 * The specification of a kind.
 * @throws {ModelGenerationError} for an unknown kind; the message lists the known ones.
 */
export function getModelKindSpec(kind: string): ModelKindSpec {
  if (!isModelKind(kind)) {
    throw new ModelGenerationError(`unknown model kind "${kind}"; known kinds: ${MODEL_KINDS.join(", ")}`);
  }
  return MODEL_KIND_SPECS[kind];
}
