/**
 * The smoke test after a source build, with fake children in place of the real one: a child
 * killed by a signal becomes a crash error naming the build, its flags, the CPU and the fix; any
 * other failure an error with the child's output; only a passed result line from the local build
 * counts. The real build's smoke test runs in `decisions build-llama` (not in CI: it needs a build).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildLlamaFromSource } from "../../../../adapter/engine/builds/buildLlamaFromSource.js";
import { parseCpuInfo } from "../../../../adapter/engine/builds/readCpuFeatures.js";
import { runToExit } from "../../../../adapter/engine/builds/runToExit.js";
import { smokeTestLlamaBuild } from "../../../../adapter/engine/builds/smokeTestLlamaBuild.js";
import { LlamaBuildCheckError, LlamaBuildCrashError } from "../../../../adapter/engine/errors.js";
import { EPYC, XEON_WITH_AMX } from "./cpuInfoFixtures.js";

/** A child that kills itself with `signal` (the variant and model path become $0 and $1). */
const killsItself = (signal: string) => ["sh", "-c", `kill -${signal} $$`];

describe("runToExit", () => {
  it("says which signal killed a child, with no exit code", async () => {
    // act
    const exit = await runToExit("sh", ["-c", "echo loading; kill -SEGV $$"], { timeoutMs: 60_000 });

    // assert
    assert.equal(exit.signal, "SIGSEGV");
    assert.equal(exit.code, null);
    assert.equal(exit.timedOut, false);
    assert.match(exit.output, /loading/);
  });

  it("gives the exit code of a child that exits by itself", async () => {
    // act
    const exit = await runToExit("sh", ["-c", "echo oops >&2; exit 3"], { timeoutMs: 60_000 });

    // assert
    assert.equal(exit.code, 3);
    assert.equal(exit.signal, null);
    assert.match(exit.output, /oops/);
  });
});

describe("smokeTestLlamaBuild", () => {
  it("turns a segmentation fault of native-amx on an AMX CPU into a crash error with the AMX fix", async () => {
    // act
    const failure = await smokeTestLlamaBuild({
      build: "native-amx",
      modelPath: "/models/tiny-qwen3.gguf",
      cpu: parseCpuInfo(XEON_WITH_AMX),
      command: killsItself("SEGV"),
    }).then(
      () => undefined,
      (error: unknown) => error,
    );

    // assert
    assert.ok(failure instanceof LlamaBuildCrashError, String(failure));
    assert.equal(failure.signal, "SIGSEGV");
    assert.match(failure.message, /^the smoke test was killed by SIGSEGV \(segmentation fault/);
    assert.match(failure.message, /Build: native-amx llama\.cpp build \(GGML_OPENMP=ON GGML_NATIVE=ON\)/);
    assert.match(
      failure.message,
      /CPU: Intel\(R\) Xeon\(R\) Platinum 8488C \(.*amx_tile amx_int8 amx_bf16\)/,
    );
    assert.match(failure.fix, /AMX kernels are the likely cause/);
    assert.match(failure.fix, /--variant native`, which leaves AMX out/);
  });

  it("names the flags of a crashed native build and offers portable or the prebuilt", async () => {
    // act
    const failure = await smokeTestLlamaBuild({
      build: "native",
      modelPath: "/models/tiny-qwen3.gguf",
      cpu: parseCpuInfo(EPYC),
      command: killsItself("SEGV"),
    }).then(
      () => undefined,
      (error: unknown) => error,
    );

    // assert
    assert.ok(failure instanceof LlamaBuildCrashError, String(failure));
    if (process.arch === "x64") assert.match(failure.build, /-mno-amx-tile -mno-amx-int8 -mno-amx-bf16/);
    assert.match(failure.fix, /^No known cause: build `--variant portable`, or serve on the prebuilt binary/);
  });

  it("reads an illegal instruction as code built for another CPU", async () => {
    // act
    const failure = await smokeTestLlamaBuild({
      build: "native",
      modelPath: "/m.gguf",
      cpu: parseCpuInfo(EPYC),
      command: killsItself("ILL"),
    }).then(
      () => undefined,
      (error: unknown) => error,
    );

    // assert
    assert.ok(failure instanceof LlamaBuildCrashError, String(failure));
    assert.equal(failure.signal, "SIGILL");
    assert.match(failure.message, /illegal instruction/);
    assert.match(failure.fix, /only for the CPU that compiled it/);
  });

  it("reports a child that exits with an error as a failed check, not a crash, with its output", async () => {
    // act
    const failure = await smokeTestLlamaBuild({
      build: "portable",
      modelPath: "/m.gguf",
      cpu: parseCpuInfo(EPYC),
      command: ["sh", "-c", "echo 'no binary for this build' >&2; exit 1"],
    }).then(
      () => undefined,
      (error: unknown) => error,
    );

    // assert
    assert.ok(failure instanceof LlamaBuildCheckError, String(failure));
    assert.equal(failure instanceof LlamaBuildCrashError, false);
    assert.match(failure.message, /the smoke test of the portable llama\.cpp build .* failed \(exit code 1/);
    assert.match(failure.output, /no binary for this build/);
  });

  it("says which command makes a build that is not here, instead of node-llama-cpp's NoBinaryFoundError", async () => {
    // prepare: the child's answer when getLlama finds no binary with the build's CMake options
    const line = JSON.stringify({ smoke_test: "no_build", build: "native" });

    // act / assert
    await assert.rejects(
      smokeTestLlamaBuild({
        build: "native",
        modelPath: "/m.gguf",
        cpu: parseCpuInfo(EPYC),
        command: ["sh", "-c", `echo '${line}'; exit 3`],
      }),
      (error: unknown) =>
        error instanceof LlamaBuildCheckError &&
        /^no native llama\.cpp build \(.*\) is here to smoke-test: run `decisions build-llama --variant native` \(without --check\)/.test(
          error.message,
        ),
    );
  });

  it("refuses a result from another binary than the local build", async () => {
    // prepare: a child that passes, but on the prebuilt binary
    const line = JSON.stringify({ smoke_test: "passed", build_type: "prebuilt", release: "b1", threads: 2 });

    // act / assert
    await assert.rejects(
      smokeTestLlamaBuild({
        build: "portable",
        modelPath: "/m.gguf",
        cpu: parseCpuInfo(EPYC),
        command: ["sh", "-c", `echo '${line}'`],
      }),
      (error: unknown) =>
        error instanceof LlamaBuildCheckError && /loaded a prebuilt binary/.test(error.message),
    );
  });

  it("returns what a passed smoke test saw", async () => {
    // prepare
    const line = JSON.stringify({
      smoke_test: "passed",
      build_type: "localBuild",
      release: "v0.4.0",
      threads: 2,
      prompt_tokens: 41,
      ms: 900,
    });

    // act
    const result = await smokeTestLlamaBuild({
      build: "portable",
      modelPath: "/m.gguf",
      cpu: parseCpuInfo(EPYC),
      command: ["sh", "-c", `echo 'llama.cpp says hello'; echo '${line}'`],
    });

    // assert
    assert.deepEqual(result, { release: "v0.4.0", threads: 2, promptTokens: 41, ms: 900 });
  });
});

describe("buildLlamaFromSource's smoke test", () => {
  it("does not offer a build whose smoke test crashes", async () => {
    // act / assert: the check of a build made before (no compile), with a crashing child
    await assert.rejects(
      buildLlamaFromSource({
        build: "native-amx",
        compile: false,
        cpu: parseCpuInfo(XEON_WITH_AMX),
        smokeTestModel: "/models/tiny-qwen3.gguf",
        smokeTest: { command: killsItself("SEGV") },
        write: () => undefined,
        env: process.env,
      }),
      (error: unknown) => error instanceof LlamaBuildCrashError && error.signal === "SIGSEGV",
    );
  });
});
