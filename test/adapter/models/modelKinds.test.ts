import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGgufFileInfo } from "node-llama-cpp";
import {
  countParameters,
  createModelWriter,
  getModelKindSpec,
  MODEL_KIND_SPECS,
  MODEL_KINDS,
  ModelGenerationError,
  planModelTensors,
  QWEN3_PADDED_VOCAB_SIZE,
} from "../../../adapter/models/index.js";

let folder: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), "model-kinds-"));
});

after(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("model kinds", () => {
  it("rejects an unknown kind, naming the known ones", () => {
    assert.throws(
      () => getModelKindSpec("tiny-gpt"),
      (error: unknown) => error instanceof ModelGenerationError && error.message.includes("tiny-qwen35"),
    );
  });

  it("gives every Q8_0 matrix a first dimension divisible by 32", () => {
    for (const kind of MODEL_KINDS) {
      const spec = MODEL_KIND_SPECS[kind];
      const plan = planModelTensors(spec, 1000);

      for (const tensor of plan.filter((t) => t.type === "Q8_0")) {
        assert.equal((tensor.shape[0] ?? 0) % 32, 0, `${kind} ${tensor.name}`);
      }
      assert.ok(
        plan.filter((t) => t.shape.length === 1).every((t) => t.type === "F32"),
        kind,
      );
    }
  });

  it("plans qwen3-0.6b-shape with Qwen3-0.6B's tensor shapes and about 0.6B parameters", () => {
    // prepare
    const spec = MODEL_KIND_SPECS["qwen3-0.6b-shape"];

    // act
    const plan = planModelTensors(spec, QWEN3_PADDED_VOCAB_SIZE);

    // assert
    const shapes = new Map(plan.map((t) => [t.name, t.shape]));
    assert.deepEqual(shapes.get("token_embd.weight"), [1024, 151_936]);
    assert.equal(shapes.has("output.weight"), false);
    assert.deepEqual(shapes.get("blk.0.attn_q.weight"), [1024, 2048]);
    assert.deepEqual(shapes.get("blk.0.attn_k.weight"), [1024, 1024]);
    assert.deepEqual(shapes.get("blk.0.attn_output.weight"), [2048, 1024]);
    assert.deepEqual(shapes.get("blk.0.attn_q_norm.weight"), [128]);
    assert.deepEqual(shapes.get("blk.27.ffn_down.weight"), [3072, 1024]);
    assert.equal(shapes.has("blk.28.attn_norm.weight"), false);
    assert.equal(plan.length, 2 + 28 * 11);
    // Qwen3-0.6B: 596,049,920 parameters (0.44B without the tied embedding)
    assert.equal(countParameters(plan), 596_049_920);
  });

  it("plans tiny-qwen35 with Gated DeltaNet layers and full attention every 4th layer", () => {
    const spec = MODEL_KIND_SPECS["tiny-qwen35"];

    const names = new Set(planModelTensors(spec, 100).map((t) => t.name));

    for (const block of [0, 1, 2]) {
      for (const tensor of [
        "attn_qkv.weight",
        "attn_gate.weight",
        "ssm_conv1d.weight",
        "ssm_a",
        "ssm_dt.bias",
        "ssm_out.weight",
      ]) {
        assert.ok(names.has(`blk.${block}.${tensor}`), `blk.${block}.${tensor}`);
      }
      assert.equal(names.has(`blk.${block}.attn_q.weight`), false);
    }
    for (const tensor of [
      "attn_q.weight",
      "attn_k.weight",
      "attn_q_norm.weight",
      "post_attention_norm.weight",
    ]) {
      assert.ok(names.has(`blk.3.${tensor}`), `blk.3.${tensor}`);
    }
    assert.equal(names.has("blk.3.ssm_a"), false);
  });

  it("writes the qwen3-0.6b-shape header with Qwen3-0.6B's metadata without generating its weights", async () => {
    // prepare
    const { writer, parameterCount } = await createModelWriter("qwen3-0.6b-shape");
    const path = join(folder, "header-only.gguf");

    // act: readGgufFileInfo reads only the header, so the weights need not exist
    await writeFile(path, writer.encodeHeader());
    const info = await readGgufFileInfo(path, { logWarnings: false });

    // assert
    const qwen3 = info.metadata.qwen3;
    assert.ok(qwen3 !== undefined);
    assert.equal(qwen3.embedding_length, 1024);
    assert.equal(qwen3.block_count, 28);
    assert.equal(qwen3.context_length, 40_960);
    assert.equal(qwen3.attention?.head_count, 16);
    assert.equal(qwen3.attention?.head_count_kv, 8);
    assert.equal(qwen3.attention?.key_length, 128);
    assert.equal(qwen3.rope?.freq_base, 1_000_000);
    assert.equal(info.metadata.general.file_type, 7);
    assert.equal(info.metadata.tokenizer.ggml.tokens.length, QWEN3_PADDED_VOCAB_SIZE);
    assert.equal(info.tensorInfo?.length, 310);
    assert.equal(parameterCount, 596_049_920);
    // Q8_0 is 34 bytes per 32 values
    assert.ok(writer.fileSize > 630e6 && writer.fileSize < 650e6, `${writer.fileSize} bytes`);
  });

  it("writes the tiny-qwen35 header with the hybrid keys llama.cpp reads", async () => {
    const { writer } = await createModelWriter("tiny-qwen35");
    const path = join(folder, "qwen35-header.gguf");

    await writeFile(path, writer.encodeHeader());
    const info = await readGgufFileInfo(path, { logWarnings: false });

    const metadata = info.metadata as unknown as { qwen35: Record<string, unknown> };
    assert.deepEqual(metadata.qwen35.ssm, {
      conv_kernel: 4,
      state_size: 16,
      group_count: 2,
      time_step_rank: 4,
      inner_size: 64,
    });
    assert.equal(metadata.qwen35.full_attention_interval, 4);
    assert.deepEqual(
      (metadata.qwen35.rope as { dimension_sections: number[] }).dimension_sections,
      [2, 1, 1, 0],
    );
  });
});
