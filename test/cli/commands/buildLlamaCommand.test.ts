/**
 * `decisions build-llama` prints the CPU and its AMX choice before it builds, passes the smoke
 * test's model and the CPU to the builder, and reports the smoke test; a crash stops it. The
 * builder is a fake here: the real build takes minutes and is run by hand (docs/llama-builds.md).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BuildLlamaOptions, BuiltLlama } from "../../../adapter/engine/builds/buildLlamaFromSource.js";
import { parseCpuInfo } from "../../../adapter/engine/builds/readCpuFeatures.js";
import { LlamaBuildCrashError } from "../../../adapter/engine/errors.js";
import { createBuildLlamaCommand } from "../../../cli/commands/buildLlamaCommand.js";
import { XEON_WITH_AMX } from "../../adapter/engine/builds/cpuInfoFixtures.js";

function collector(): { write(text: string): boolean; text(): string } {
  let text = "";
  return {
    write(chunk: string) {
      text += chunk;
      return true;
    },
    text: () => text,
  };
}

describe("build-llama", () => {
  it("says AMX is left out of native on an AMX CPU, builds with the smoke test's model and reports it", async () => {
    // prepare
    const stdout = collector();
    const stderr = collector();
    const calls: BuildLlamaOptions[] = [];
    const command = createBuildLlamaCommand({
      stdout,
      stderr,
      readCpu: () => parseCpuInfo(XEON_WITH_AMX),
      smokeTestModel: async () => "/models/tiny-qwen3.gguf",
      build: async (options): Promise<BuiltLlama> => {
        calls.push(options);
        return {
          build: options.build,
          cmakeOptions: { GGML_OPENMP: "ON", GGML_NATIVE: "ON" },
          release: "v0.4.0",
          cpuMathCores: 2,
          durationS: 600,
          smokeTest: { release: "v0.4.0", threads: 2, promptTokens: 41, ms: 1200 },
        };
      },
    });

    // act
    const code = await command.run(["--variant", "native"]);

    // assert
    assert.equal(code, 0);
    assert.match(stderr.text(), /build-llama: CPU Intel\(R\) Xeon\(R\) Platinum 8488C/);
    assert.match(stderr.text(), /build-llama: AMX: left out \(-mno-amx-tile -mno-amx-int8 -mno-amx-bf16\)/);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.smokeTestModel, "/models/tiny-qwen3.gguf");
    assert.deepEqual(calls[0]?.cpu.amx, ["amx_bf16", "amx_int8", "amx_tile"]);
    assert.equal(calls[0]?.compile, true);
    assert.match(
      stdout.text(),
      /smoke test passed: tiny-qwen3 loaded, a 41-token prompt evaluated on 2 threads/,
    );
  });

  it("with --check only smoke-tests the build made before", async () => {
    // prepare
    const calls: BuildLlamaOptions[] = [];
    const stdout = collector();
    const command = createBuildLlamaCommand({
      stdout,
      stderr: collector(),
      readCpu: () => parseCpuInfo(""),
      smokeTestModel: async () => "/m.gguf",
      build: async (options) => {
        calls.push(options);
        return {
          build: options.build,
          cmakeOptions: { GGML_OPENMP: "ON", GGML_NATIVE: "OFF" },
          release: "v0.4.0",
          cpuMathCores: 2,
          durationS: 3,
          smokeTest: { release: "v0.4.0", threads: 2, promptTokens: 41, ms: 900 },
        };
      },
    });

    // act
    await command.run(["--variant", "portable", "--check"]);

    // assert
    assert.equal(calls[0]?.compile, false);
    assert.match(
      stdout.text(),
      /^checked llama\.cpp v0\.4\.0 \(portable: GGML_OPENMP=ON GGML_NATIVE=OFF\)\n/,
    );
  });

  it("stops with the crash of the smoke test, offering nothing to serve on", async () => {
    // prepare
    const stdout = collector();
    const crash = new LlamaBuildCrashError({
      subject: "the smoke test",
      build: "native-amx llama.cpp build (GGML_OPENMP=ON GGML_NATIVE=ON)",
      signal: "SIGSEGV",
      doing: "while evaluating one prompt",
      cpu: "Xeon",
      fix: "build --variant native",
      output: "",
    });
    const command = createBuildLlamaCommand({
      stdout,
      stderr: collector(),
      readCpu: () => parseCpuInfo(XEON_WITH_AMX),
      smokeTestModel: async () => "/m.gguf",
      build: async () => {
        throw crash;
      },
    });

    // act / assert
    await assert.rejects(command.run(["--variant", "native-amx"]), (error: unknown) => error === crash);
    assert.doesNotMatch(stdout.text(), /serve on it/);
  });
});
