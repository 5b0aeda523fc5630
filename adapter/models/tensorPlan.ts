import type { GgmlTypeName } from "../gguf/index.js";
import { ModelGenerationError } from "./errors.js";
import type { ModelKindSpec } from "./modelKinds.js";

/** How a tensor's values are drawn. */
export type TensorInit =
  | { kind: "normal"; std: number }
  | { kind: "uniform"; min: number; max: number }
  | { kind: "constant"; value: number };

/** One tensor of a generated model: name, ggml shape (contiguous dimension first), type and values. */
export interface TensorPlan {
  name: string;
  shape: readonly number[];
  type: GgmlTypeName;
  init: TensorInit;
}

const ONES: TensorInit = { kind: "constant", value: 1 };

/**
 * Lists the tensors of a model kind, with the names and shapes llama.cpp's loader expects
 * (`src/models/llama.cpp`, `qwen3.cpp`, `qwen35.cpp`). Matrices use the kind's weight type; norms,
 * biases and the recurrent layers' small vectors and convolution stay F32.
 * @param vocabSize number of embedding rows (the vocabulary's token count).
 * @throws {ModelGenerationError} for a `qwen35` spec without hybrid settings.
 */
export function planModelTensors(spec: ModelKindSpec, vocabSize: number): TensorPlan[] {
  const E = spec.embeddingLength;
  const F = spec.feedForwardLength;
  const hd = spec.headDim;
  const H = spec.headCount;
  const Hkv = spec.headCountKv;
  const weights: TensorInit = { kind: "normal", std: spec.weightStd };
  const matrix = (name: string, shape: readonly number[]): TensorPlan => ({
    name,
    shape,
    type: spec.weightType,
    init: weights,
  });
  const vector = (name: string, length: number, init: TensorInit = ONES): TensorPlan => ({
    name,
    shape: [length],
    type: "F32",
    init,
  });

  const plan: TensorPlan[] = [
    {
      name: "token_embd.weight",
      shape: [E, vocabSize],
      type: spec.weightType,
      init: { kind: "normal", std: spec.embeddingStd },
    },
    vector("output_norm.weight", E),
  ];
  if (!spec.tiedEmbeddings) plan.push(matrix("output.weight", [E, vocabSize]));

  for (let block = 0; block < spec.blockCount; block++) {
    const p = `blk.${block}.`;
    const ffn = [
      matrix(`${p}ffn_gate.weight`, [E, F]),
      matrix(`${p}ffn_up.weight`, [E, F]),
      matrix(`${p}ffn_down.weight`, [F, E]),
    ];
    if (spec.architecture === "qwen35") {
      const hybrid = spec.hybrid;
      if (hybrid === undefined)
        throw new ModelGenerationError(`${spec.kind}: a qwen35 model needs hybrid settings`);
      plan.push(vector(`${p}attn_norm.weight`, E), vector(`${p}post_attention_norm.weight`, E));
      const recurrent = (block + 1) % hybrid.fullAttentionInterval !== 0;
      if (recurrent) {
        const keyDim = hybrid.stateSize * hybrid.groupCount;
        const valueDim = hybrid.stateSize * hybrid.timeStepRank;
        const convDim = keyDim * 2 + valueDim;
        plan.push(
          matrix(`${p}attn_qkv.weight`, [E, convDim]),
          matrix(`${p}attn_gate.weight`, [E, valueDim]),
          {
            name: `${p}ssm_conv1d.weight`,
            shape: [hybrid.convKernel, convDim],
            type: "F32",
            init: { kind: "normal", std: 0.2 },
          },
          vector(`${p}ssm_dt.bias`, hybrid.timeStepRank, { kind: "uniform", min: 0, max: 1 }),
          // ssm_a is -exp(A_log): negative, so each step decays the state.
          vector(`${p}ssm_a`, hybrid.timeStepRank, { kind: "uniform", min: -4, max: -0.5 }),
          matrix(`${p}ssm_beta.weight`, [E, hybrid.timeStepRank]),
          matrix(`${p}ssm_alpha.weight`, [E, hybrid.timeStepRank]),
          vector(`${p}ssm_norm.weight`, hybrid.stateSize),
          matrix(`${p}ssm_out.weight`, [valueDim, E]),
        );
      } else {
        // Qwen3.5 attention projects queries and an output gate together: 2 × head size per head.
        plan.push(
          matrix(`${p}attn_q.weight`, [E, hd * H * 2]),
          matrix(`${p}attn_k.weight`, [E, hd * Hkv]),
          matrix(`${p}attn_v.weight`, [E, hd * Hkv]),
          matrix(`${p}attn_output.weight`, [hd * H, E]),
          vector(`${p}attn_q_norm.weight`, hd),
          vector(`${p}attn_k_norm.weight`, hd),
        );
      }
      plan.push(...ffn);
      continue;
    }
    plan.push(
      vector(`${p}attn_norm.weight`, E),
      matrix(`${p}attn_q.weight`, [E, hd * H]),
      matrix(`${p}attn_k.weight`, [E, hd * Hkv]),
      matrix(`${p}attn_v.weight`, [E, hd * Hkv]),
      matrix(`${p}attn_output.weight`, [hd * H, E]),
    );
    if (spec.architecture === "qwen3") {
      plan.push(vector(`${p}attn_q_norm.weight`, hd), vector(`${p}attn_k_norm.weight`, hd));
    }
    plan.push(vector(`${p}ffn_norm.weight`, E), ...ffn);
  }
  return plan;
}

/** Total number of values (parameters) in a tensor plan. */
export function countParameters(plan: readonly TensorPlan[]): number {
  return plan.reduce(
    (sum, tensor) => sum + tensor.shape.reduce((product, dimension) => product * dimension, 1),
    0,
  );
}
