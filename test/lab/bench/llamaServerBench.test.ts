/**
 * The llama-server comparison (P7): skipped with a reason where nothing can build llama-server,
 * and its table reads the ratios it was given.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parseCpuInfo } from "../../../adapter/engine/builds/readCpuFeatures.js";
import { benchCommand } from "../../../cli/commands/benchCommand.js";
import {
  ensureLlamaServer,
  LlamaServerUnavailableError,
} from "../../../lab/bench/llamaServer/buildLlamaServer.js";
import { formatLlamaServerReport } from "../../../lab/bench/llamaServer/formatLlamaServerReport.js";
import type { LlamaServerReport } from "../../../lab/bench/llamaServer/runLlamaServerBench.js";

describe("the llama-server bench", () => {
  it("reports llama-server as not buildable, naming the missing tool, when git, cmake or a compiler is absent", async () => {
    // prepare: a PATH with nothing on it
    const empty = await mkdtemp(join(tmpdir(), "no-tools-"));
    const path = process.env.PATH;
    process.env.PATH = empty;
    try {
      // act / assert
      await assert.rejects(
        ensureLlamaServer({ cacheDir: join(empty, "cache"), cpu: parseCpuInfo(""), log: () => undefined }),
        (error: unknown) =>
          error instanceof LlamaServerUnavailableError && /git is not installed/.test(error.message),
      );
    } finally {
      process.env.PATH = path;
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("prints each case's medians and ratios, and whether P7 met its goal", () => {
    // prepare
    const report: LlamaServerReport = {
      command: "decisions bench --llama-server --quick",
      started_at: "2026-12-01T00:00:00.000Z",
      duration_s: 12,
      quick: true,
      machine: { cpu: "cpu", cores: 2, memory_gib: 24, node: "v22" },
      model_path: "/m.gguf",
      threads: 2,
      llama_server: {
        binary: "/b",
        commit: "80fb11ac73e6",
        cmakeOptions: { GGML_OPENMP: "ON" },
        buildS: 0,
        amx: false,
        amxChoice: "AMX: none on this CPU",
        flash_attention: "off",
      },
      adapter_flash_attention: true,
      skipped: ["adapter (native): no native build"],
      adapters: ["adapter (prebuilt)"],
      same_prompts: true,
      rows: [
        {
          scenario: "cold",
          state_words: 100,
          prompt_tokens: 250,
          median_ms: { "llama-server": 1000, "adapter (prebuilt)": 1100 },
          rounds_ms: { "llama-server": [1000], "adapter (prebuilt)": [1100] },
          ratio: { "adapter (prebuilt)": 1.1 },
        },
      ],
      P7: {
        "adapter (prebuilt)": { label: "x", value: 1.1, goal: "≤ 1.0 in each case", met: false, details: {} },
      },
      build_gain: null,
    };

    // act
    const table = formatLlamaServerReport(report);

    // assert
    assert.match(table, /cold \| 100 \| 250 \| 1000 \| 1100 \| 1\.100/);
    assert.match(table, /P7 adapter \(prebuilt\): worst 1\.100 \(goal ≤ 1\.0 in each case, not met\)/);
    assert.match(table, /GGML_OPENMP=ON, -fa off; AMX: none on this CPU/);
    assert.match(table, /the engine: flash attention on/);
    assert.match(table, /skipped: adapter \(native\): no native build/);
  });

  it("refuses --pipeline and --llama-server together", async () => {
    // act / assert
    await assert.rejects(benchCommand.run(["--pipeline", "--llama-server"]), /are separate runs: give one/);
  });
});
