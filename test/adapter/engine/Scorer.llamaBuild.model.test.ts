/**
 * Which llama.cpp binary the scorer loads: the prebuilt one by default, and a source build of
 * `decisions build-llama` only when asked, never a silent fallback to the prebuilt.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { cmakeOptionsOf } from "../../../adapter/engine/builds/llamaBuilds.js";
import { ModelLoadError } from "../../../adapter/engine/errors.js";
import { Scorer } from "../../../adapter/engine/Scorer.js";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { buildLlamaCommand } from "../../../cli/commands/buildLlamaCommand.js";

describe("Scorer llamaBuild", () => {
  let modelPath: string;
  before(async () => {
    modelPath = await ensureGeneratedModel("tiny-qwen3");
  });

  it("runs on node-llama-cpp's prebuilt binary by default", async () => {
    // act
    await using scorer = await Scorer.load({ modelPath, threads: 1, contextSize: 512, cacheMaxBytes: 0 });

    // assert
    assert.equal(scorer.binding.buildType, "prebuilt");
  });

  it("loads a portable source build when one was made, and otherwise refuses naming the command", async () => {
    // act: whether this machine has a portable build depends on whether build-llama ran here
    const outcome = await Scorer.load({
      modelPath,
      threads: 1,
      contextSize: 512,
      cacheMaxBytes: 0,
      llamaBuild: "portable",
    }).then(
      (scorer) => ({ scorer }),
      (error: unknown) => ({ error }),
    );

    // assert: either the local build itself, or an error telling how to make it — never the prebuilt
    if ("scorer" in outcome) {
      await using scorer = outcome.scorer;
      assert.equal(scorer.binding.buildType, "localBuild");
    } else {
      assert.ok(outcome.error instanceof ModelLoadError);
      assert.match(outcome.error.message, /decisions build-llama --variant portable/);
    }
  });

  it("tells the builds apart by their CMake options, none of them node-llama-cpp's default", () => {
    // act
    const native = cmakeOptionsOf("native", "x64");
    const nativeAmx = cmakeOptionsOf("native-amx", "x64");
    const portable = cmakeOptionsOf("portable", "x64");

    // assert: native takes AMX out through the Release flags (cmake-js sets CMAKE_CXX_FLAGS itself)
    assert.deepEqual(native, {
      GGML_OPENMP: "ON",
      GGML_NATIVE: "ON",
      CMAKE_C_FLAGS_RELEASE: "-O3 -DNDEBUG -mno-amx-tile -mno-amx-int8 -mno-amx-bf16",
      CMAKE_CXX_FLAGS_RELEASE: "-O3 -DNDEBUG -mno-amx-tile -mno-amx-int8 -mno-amx-bf16",
    });
    assert.deepEqual(nativeAmx, { GGML_OPENMP: "ON", GGML_NATIVE: "ON" });
    assert.deepEqual(portable, { GGML_OPENMP: "ON", GGML_NATIVE: "OFF" });
  });

  it("adds no x86 flags to a native build for another architecture", () => {
    // act / assert
    assert.deepEqual(cmakeOptionsOf("native", "arm64"), { GGML_OPENMP: "ON", GGML_NATIVE: "ON" });
  });

  it("build-llama refuses an unknown variant before building anything", async () => {
    // act / assert
    await assert.rejects(
      buildLlamaCommand.run(["--variant", "fastest"]),
      /--variant must be one of native, native-amx, portable/,
    );
  });
});
