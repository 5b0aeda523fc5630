import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEFAULT_CACHE_RULE } from "../../../adapter/engine/cache/defaultCacheBytes.js";
import { readServerConfig, SERVER_SETTINGS, type ServerSetting } from "../../../adapter/server/config.js";
import { ServerConfigError } from "../../../adapter/server/errors.js";

const MACHINE = { availableParallelism: 6 };

describe("readServerConfig", () => {
  it("applies the documented defaults when nothing is set", () => {
    const config = readServerConfig({}, {}, MACHINE);
    assert.deepEqual(config, {
      host: "127.0.0.1",
      port: 8080,
      modelPath: undefined,
      modelDir: "/opt/ml/model",
      requireManifest: true,
      threads: 6,
      gpuLayers: 0,
      contextSize: 8192,
      batchSize: 512,
      llamaBuild: "prebuilt",
      parallelSequences: 1,
      parallelBatching: "exact",
      maxBodyBytes: 4 * 1024 * 1024,
      maxOptions: 255,
      maxQuestions: 64,
      maxPromptTokens: 8192,
      maxRequestTokens: 32768,
      maxCompletionTokens: 512,
      maxInFlight: 1,
      queueDepth: 8,
      interactiveReserve: 2,
      retryAfterSeconds: 1,
      cacheMaxBytes: undefined,
      requestTimeoutMs: 60_000,
      bodyTimeoutSeconds: 10,
      maxBodyReads: 32,
      maxStateBytesPerToken: 16,
      hideCacheDetails: false,
      shutdownTimeoutMs: 30_000,
      logLevel: "info",
    });
  });

  it("admits as many requests at once as there are parallel sequences, unless told otherwise", () => {
    const parallel = readServerConfig(
      { SEMIF_PARALLEL_SEQUENCES: "4", SEMIF_PARALLEL_BATCHING: "Merged" },
      {},
      MACHINE,
    );
    assert.equal(parallel.parallelSequences, 4);
    assert.equal(parallel.maxInFlight, 4);
    assert.equal(parallel.parallelBatching, "merged");
    assert.equal(
      readServerConfig({ SEMIF_PARALLEL_SEQUENCES: "4", SEMIF_MAX_IN_FLIGHT: "2" }, {}, MACHINE).maxInFlight,
      2,
    );
    assert.throws(
      () => readServerConfig({ SEMIF_PARALLEL_SEQUENCES: "0", SEMIF_PARALLEL_BATCHING: "fast" }, {}, MACHINE),
      /SEMIF_PARALLEL_SEQUENCES: must be an integer from 1 to 64, got 0[\s\S]*SEMIF_PARALLEL_BATCHING: must be one of exact, merged/,
    );
  });

  it("reads every setting from its environment variable", () => {
    const config = readServerConfig(
      {
        SAGEMAKER_BIND_TO_PORT: "9001",
        PORT: "9002",
        SEMIF_HOST: "0.0.0.0",
        SEMIF_MODEL_PATH: "/models/m.gguf",
        SEMIF_MODEL_DIR: "/models",
        SEMIF_REQUIRE_MANIFEST: "false",
        SEMIF_THREADS: "3",
        SEMIF_GPU_LAYERS: "-1",
        SEMIF_CONTEXT_SIZE: "16384",
        SEMIF_BATCH_SIZE: "1024",
        SEMIF_MAX_BODY_BYTES: "1000",
        SEMIF_MAX_OPTIONS: "30",
        SEMIF_MAX_QUESTIONS: "5",
        SEMIF_MAX_PROMPT_TOKENS: "12000",
        SEMIF_MAX_REQUEST_TOKENS: "50000",
        SEMIF_MAX_COMPLETION_TOKENS: "100",
        SEMIF_MAX_IN_FLIGHT: "2",
        SEMIF_QUEUE_DEPTH: "0",
        SEMIF_RETRY_AFTER_SECONDS: "5",
        SEMIF_CACHE_MAX_BYTES: "0",
        SEMIF_REQUEST_TIMEOUT_MS: "1000",
        SEMIF_SHUTDOWN_TIMEOUT_MS: "10",
        SEMIF_LOG_LEVEL: "DEBUG",
      },
      {},
      MACHINE,
    );
    assert.equal(config.port, 9001, "SAGEMAKER_BIND_TO_PORT wins over PORT");
    assert.equal(config.host, "0.0.0.0");
    assert.equal(config.modelPath, "/models/m.gguf");
    assert.equal(config.requireManifest, false);
    assert.equal(config.gpuLayers, -1);
    assert.equal(config.maxPromptTokens, 12000);
    assert.equal(config.queueDepth, 0);
    assert.equal(config.logLevel, "debug");
  });

  it("lets flags override the environment", () => {
    const config = readServerConfig(
      { PORT: "9002", SEMIF_THREADS: "3" },
      { port: "7000", model: "/m.gguf" },
      MACHINE,
    );
    assert.equal(config.port, 7000);
    assert.equal(config.threads, 3);
    assert.equal(config.modelPath, "/m.gguf");
  });

  it("leaves the cache bound to the engine's sizing from the machine unless it is set, 0 included", () => {
    // prepare
    const setting = SERVER_SETTINGS.find((candidate) => candidate.key === "cacheMaxBytes");

    // act
    const unset = readServerConfig({}, {}, MACHINE);
    const none = readServerConfig({ SEMIF_CACHE_MAX_BYTES: "0" }, {}, MACHINE);
    const flagged = readServerConfig(
      { SEMIF_CACHE_MAX_BYTES: "0" },
      { "cache-max-bytes": "1048576" },
      MACHINE,
    );

    // assert
    assert.equal(unset.cacheMaxBytes, undefined, "computed by the engine where the state files go");
    assert.equal(none.cacheMaxBytes, 0);
    assert.equal(flagged.cacheMaxBytes, 1_048_576);
    assert.equal(setting?.literalDefault, false);
    assert.equal(setting?.defaultText, DEFAULT_CACHE_RULE);
    assert.match(setting?.defaultText ?? "", /^sized from the machine at load: min\(8 GiB, /);
    assert.throws(
      () => readServerConfig({ SEMIF_CACHE_MAX_BYTES: "-1" }, {}, MACHINE),
      /SEMIF_CACHE_MAX_BYTES/,
    );
  });

  it("treats blank variables as unset", () => {
    assert.equal(readServerConfig({ SEMIF_THREADS: "  " }, {}, MACHINE).threads, 6);
  });

  it("fails loudly, naming every bad variable and flag at once", () => {
    assert.throws(
      () =>
        readServerConfig(
          { SEMIF_THREADS: "many", SEMIF_GPU_LAYERS: "-2", SEMIF_LOG_LEVEL: "loud", PORT: "70000" },
          { "queue-depth": "1.5" },
          MACHINE,
        ),
      (error: unknown) => {
        assert.ok(error instanceof ServerConfigError);
        assert.equal(error.problems.length, 5);
        for (const name of [
          "SEMIF_THREADS",
          "SEMIF_GPU_LAYERS",
          "SEMIF_LOG_LEVEL",
          "PORT",
          "--queue-depth",
        ]) {
          assert.ok(
            error.problems.some((problem) => problem.startsWith(`${name}: `)),
            `${name} in ${error.message}`,
          );
        }
        return true;
      },
    );
  });

  it("refuses a prompt budget or batch larger than the context", () => {
    assert.throws(
      () =>
        readServerConfig({
          SEMIF_CONTEXT_SIZE: "4096",
          SEMIF_MAX_PROMPT_TOKENS: "5000",
          SEMIF_BATCH_SIZE: "8192",
        }),
      (error: unknown) => {
        assert.ok(error instanceof ServerConfigError);
        assert.deepEqual([...error.problems].sort(), [
          "SEMIF_BATCH_SIZE: must be at most the context size (4096), got 8192",
          "SEMIF_MAX_PROMPT_TOKENS: must be at most the context size (4096), got 5000",
        ]);
        return true;
      },
    );
  });

  it("keeps two waiting places for interactive calls, fewer when the queue is shallower, never more than it", () => {
    assert.equal(readServerConfig({}, {}, MACHINE).interactiveReserve, 2);
    assert.equal(readServerConfig({ SEMIF_QUEUE_DEPTH: "1" }, {}, MACHINE).interactiveReserve, 1);
    assert.equal(readServerConfig({ SEMIF_INTERACTIVE_RESERVE: "5" }, {}, MACHINE).interactiveReserve, 5);
    assert.equal(readServerConfig({}, { "interactive-reserve": "0" }, MACHINE).interactiveReserve, 0);
    assert.throws(
      () => readServerConfig({ SEMIF_QUEUE_DEPTH: "3", SEMIF_INTERACTIVE_RESERVE: "4" }, {}, MACHINE),
      /SEMIF_INTERACTIVE_RESERVE: must be at most the queue depth \(3\), got 4/,
    );
  });

  it("derives the batch size and prompt budget from the context size when they are not set", () => {
    const config = readServerConfig({ SEMIF_CONTEXT_SIZE: "256" }, {}, MACHINE);

    assert.equal(config.batchSize, 256);
    assert.equal(config.maxPromptTokens, 256);
  });

  it("answers the default of a setting whose value is bad only with the ServerConfigError", () => {
    assert.throws(
      () => readServerConfig({ SEMIF_CONTEXT_SIZE: "big", SEMIF_BATCH_SIZE: "1024" }, {}, MACHINE),
      {
        name: "ServerConfigError",
        message: /SEMIF_CONTEXT_SIZE: must be an integer/,
      },
    );
  });

  it("documents every setting with a variable, a flag and a default", () => {
    for (const setting of SERVER_SETTINGS) {
      assert.ok(
        setting.env.length > 0 &&
          setting.flag !== "" &&
          setting.defaultText !== "" &&
          setting.description !== "",
      );
    }
    assert.equal(new Set(SERVER_SETTINGS.map((s) => s.flag)).size, SERVER_SETTINGS.length);
  });
});

/** docs/configuration.md's server table as the settings table writes it: literal defaults as code, computed ones in words. */
function configurationTable(settings: readonly ServerSetting[]): string[] {
  const rows = settings.map((setting) => {
    const variables = setting.env.map((name) => `\`${name}\``).join(", ");
    const fallback = setting.literalDefault ? `\`${setting.defaultText}\`` : setting.defaultText;
    return `| \`--${setting.flag}\` | ${variables} | ${fallback} | ${setting.description} |`;
  });
  return [CONFIGURATION_TABLE_HEADER, "| --- | --- | --- | --- |", ...rows];
}

const CONFIGURATION_TABLE_HEADER = "| flag | variable | default | what it does |";

describe("docs/configuration.md's server table", () => {
  it("is the settings table: same rows, order, variables, defaults and descriptions", () => {
    // prepare
    const page = readFileSync(new URL("../../../docs/configuration.md", import.meta.url), "utf8");
    const lines = page.split("\n");
    const start = lines.indexOf(CONFIGURATION_TABLE_HEADER);

    // act
    const end = lines.findIndex((line, index) => index > start && !line.startsWith("|"));
    const table = start === -1 ? [] : lines.slice(start, end === -1 ? undefined : end);

    // assert
    const expected = configurationTable(SERVER_SETTINGS);
    assert.deepEqual(
      table,
      expected,
      `docs/configuration.md's server table should read:\n${expected.join("\n")}\n`,
    );
  });
});

describe("the llama.cpp build setting", () => {
  it("takes a source build from SEMIF_LLAMA_BUILD and refuses an unknown one", () => {
    // act
    const native = readServerConfig({ SEMIF_LLAMA_BUILD: "native" }, {});
    const portable = readServerConfig({}, { "llama-build": "portable" });

    // assert
    assert.equal(native.llamaBuild, "native");
    assert.equal(portable.llamaBuild, "portable");
    assert.throws(() => readServerConfig({ SEMIF_LLAMA_BUILD: "openmp" }, {}), /SEMIF_LLAMA_BUILD/);
  });
});
