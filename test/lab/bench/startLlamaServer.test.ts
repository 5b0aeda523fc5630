/**
 * A llama-server that crashes is reported as a crash, with its signal, the build and the CPU,
 * instead of "exit code null": fake llama-server scripts that kill themselves at each stage.
 */
import assert from "node:assert/strict";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseCpuInfo } from "../../../adapter/engine/builds/readCpuFeatures.js";
import { LlamaBuildCrashError } from "../../../adapter/engine/errors.js";
import { smokeTestLlamaServer } from "../../../lab/bench/llamaServer/smokeTestLlamaServer.js";
import { startLlamaServer } from "../../../lab/bench/llamaServer/startLlamaServer.js";
import { PartStartError } from "../../../local/errors.js";
import { ManagedProcess } from "../../../local/services/ManagedProcess.js";
import { XEON_WITH_AMX } from "../../adapter/engine/builds/cpuInfoFixtures.js";

const xeon = parseCpuInfo(XEON_WITH_AMX);
const build = {
  cmakeOptions: { CMAKE_BUILD_TYPE: "Release", GGML_NATIVE: "ON", GGML_OPENMP: "ON" },
  amx: true,
  cpu: xeon,
};

describe("startLlamaServer", () => {
  let folder: string;
  /** Writes an executable shell script standing in for llama-server. */
  const fake = async (name: string, body: string): Promise<string> => {
    const path = join(folder, name);
    await writeFile(path, `#!/bin/sh\n${body}\n`);
    await chmod(path, 0o755);
    return path;
  };
  const options = (binary: string) => ({
    binary,
    modelPath: "/models/tiny-qwen3.gguf",
    threads: 2,
    contextSize: 512,
    batchSize: 512,
    build,
  });

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "fake-llama-server-"));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("reports a segmentation fault before it listens as llama-server killed by SIGSEGV", async () => {
    // prepare
    const binary = await fake("segv-at-start", 'echo "llama threadpool init, n_threads = 2"; kill -SEGV $$');

    // act
    const failure = await startLlamaServer(options(binary)).then(
      () => undefined,
      (error: unknown) => error,
    );

    // assert
    assert.ok(failure instanceof LlamaBuildCrashError, String(failure));
    assert.equal(failure.signal, "SIGSEGV");
    assert.match(
      failure.message,
      /^llama-server was killed by SIGSEGV \(segmentation fault.*\) before it was listening/,
    );
    assert.match(failure.message, /GGML_NATIVE=ON GGML_OPENMP=ON/);
    assert.match(failure.message, /amx_tile amx_int8 amx_bf16/);
    assert.match(failure.fix, /AMX kernels are the likely cause/);
    assert.match(failure.output, /llama threadpool init/);
    assert.doesNotMatch(failure.message, /exit code null/);
  });

  it("reports a crash while the model loads, after it listened, with the signal", async () => {
    // prepare: listens (the ready line), then dies before /health answers 200
    const binary = await fake(
      "segv-loading",
      'echo "main: server is listening on http://127.0.0.1"; kill -SEGV $$',
    );

    // act / assert
    await assert.rejects(
      startLlamaServer(options(binary)),
      (error: unknown) =>
        error instanceof LlamaBuildCrashError &&
        error.signal === "SIGSEGV" &&
        /while loading the model/.test(error.message),
    );
  });

  it("reports the crash from the smoke test before the bench uses the build", async () => {
    // prepare
    const binary = await fake("segv-smoke", "kill -SEGV $$");

    // act / assert
    await assert.rejects(
      smokeTestLlamaServer({
        binary: { path: binary, cmakeOptions: build.cmakeOptions, amx: true },
        modelPath: "/models/tiny-qwen3.gguf",
        cpu: xeon,
        threads: 2,
      }),
      (error: unknown) =>
        error instanceof LlamaBuildCrashError && /^llama-server was killed/.test(error.message),
    );
  });
});

describe("ManagedProcess", () => {
  it("says which signal killed a part before it was ready, not exit code null", async () => {
    // act
    const failure = await ManagedProcess.start({
      part: "a part",
      command: "sh",
      args: ["-c", "kill -SEGV $$"],
      readyLine: /ready/,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );

    // assert
    assert.ok(failure instanceof PartStartError, String(failure));
    assert.match(failure.message, /was killed by SIGSEGV before it was ready/);
  });
});
