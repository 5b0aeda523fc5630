import { GgufWriter, SeededRandom } from "../gguf/index.js";
import { DEFAULT_MODEL_SEED, getModelKindSpec, type ModelKindSpec } from "./modelKinds.js";
import { modelMetadata } from "./modelMetadata.js";
import { loadQwen3Vocab } from "./qwen3Vocab.js";
import { buildSentencePieceVocab } from "./sentencePieceVocab.js";
import { countParameters, planModelTensors, type TensorPlan } from "./tensorPlan.js";
import type { GgufVocab } from "./types.js";

/** Options of {@link createModelWriter}. */
export interface CreateModelWriterOptions {
  /** Seed of the weights. Default {@link DEFAULT_MODEL_SEED}. */
  seed?: number;
}

/** A model ready to be written: nothing is generated until `writer.write()` pulls the tensor data. */
export interface ModelWriterPlan {
  writer: GgufWriter;
  spec: ModelKindSpec;
  vocab: GgufVocab;
  tensors: TensorPlan[];
  parameterCount: number;
  seed: number;
}

/** Values per generated chunk: bounds memory for the large kinds. */
const CHUNK_VALUES = 1 << 20;

/**
 * Prepares the GGUF of a model kind: metadata, vocabulary and tensor descriptors, with tensor values
 * generated lazily (chunk by chunk, from a random stream per tensor name) when the writer writes.
 * Use it to inspect a kind's header, layout and size without generating its weights.
 * @throws {ModelGenerationError} for an unknown kind or an unreadable vocabulary.
 * @example
 * ```ts
 * const { writer, parameterCount } = await createModelWriter("qwen3-0.6b-shape");
 * writer.fileSize; // bytes the file would have
 * ```
 */
export async function createModelWriter(
  kind: string,
  options: CreateModelWriterOptions = {},
): Promise<ModelWriterPlan> {
  const spec = getModelKindSpec(kind);
  const seed = options.seed ?? DEFAULT_MODEL_SEED;
  const vocab = spec.vocabulary === "qwen3" ? await loadQwen3Vocab() : buildSentencePieceVocab();
  const tensors = planModelTensors(spec, vocab.tokens.length);
  const writer = new GgufWriter();
  for (const [key, value] of modelMetadata(spec, vocab, seed)) writer.set(key, value);
  for (const tensor of tensors) {
    writer.addTensor({
      name: tensor.name,
      shape: tensor.shape,
      type: tensor.type,
      data: () => tensorValues(tensor, seed),
    });
  }
  return { writer, spec, vocab, tensors, parameterCount: countParameters(tensors), seed };
}

function* tensorValues(tensor: TensorPlan, seed: number): Generator<Float32Array> {
  const rowLength = tensor.shape[0] ?? 1;
  const total = tensor.shape.reduce((product, dimension) => product * dimension, 1);
  const chunkLength = Math.max(1, Math.floor(CHUNK_VALUES / rowLength)) * rowLength;
  const random = SeededRandom.forStream(seed, tensor.name);
  const { init } = tensor;
  const buffer = new Float32Array(Math.min(chunkLength, total));
  for (let done = 0; done < total; done += chunkLength) {
    const chunk = buffer.subarray(0, Math.min(chunkLength, total - done));
    if (init.kind === "normal") random.fillNormal(chunk, init.std);
    else if (init.kind === "uniform") random.fillUniform(chunk, init.min, init.max);
    else chunk.fill(init.value);
    yield chunk;
  }
}
