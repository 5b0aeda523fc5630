import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readServerConfig, SERVER_SETTINGS } from "../../../adapter/server/config.js";
import { COMMAND_REGISTRY } from "../../../cli/commandRegistry.js";
import { parseServeArgs, serveUsage } from "../../../cli/commands/serveCommand.js";
import { UsageError } from "../../../cli/errors.js";

describe("decisions serve", () => {
  it("parses every setting's flag into a config override", () => {
    const { help, flags } = parseServeArgs([
      "--model",
      "/m.gguf",
      "--port",
      "9000",
      "--host",
      "0.0.0.0",
      "--gpu-layers",
      "-1",
    ]);
    assert.equal(help, false);
    assert.deepEqual(flags, { model: "/m.gguf", port: "9000", host: "0.0.0.0", "gpu-layers": "-1" });
    const config = readServerConfig({ PORT: "1" }, flags);
    assert.equal(config.port, 9000);
    assert.equal(config.gpuLayers, -1);
  });

  it("takes --flag=value as well as --flag value", () => {
    const { flags } = parseServeArgs(["--port=9000", "--gpu-layers=-1", "--log-level", "debug"]);

    assert.deepEqual(flags, { port: "9000", "gpu-layers": "-1", "log-level": "debug" });
  });

  it("refuses unknown flags, missing values and positional arguments as usage errors", () => {
    assert.throws(() => parseServeArgs(["--nope"]), UsageError);
    assert.throws(() => parseServeArgs(["--port"]), UsageError);
    assert.throws(() => parseServeArgs(["extra"]), UsageError);
  });

  it("takes --generate <kind>, refusing an unknown kind and --generate with --model", () => {
    assert.equal(parseServeArgs(["--generate", "tiny-llama"]).generate, "tiny-llama");
    assert.equal(parseServeArgs(["--generate=tiny-qwen3", "--port", "0"]).generate, "tiny-qwen3");
    assert.equal(parseServeArgs([]).generate, undefined);

    assert.throws(() => parseServeArgs(["--generate", "tiny-gpt"]), UsageError);
    assert.throws(() => parseServeArgs(["--generate", "tiny-llama", "--model", "/m.gguf"]), UsageError);
  });

  it("documents every flag with its variables and default in --help", () => {
    const usage = serveUsage();
    for (const setting of SERVER_SETTINGS) {
      assert.ok(usage.includes(`--${setting.flag}`), setting.flag);
      for (const name of setting.env) assert.ok(usage.includes(name), name);
      assert.ok(usage.includes(`default ${setting.defaultText})`), `${setting.flag}: ${setting.defaultText}`);
    }
    assert.match(usage, /--generate <kind>/);
    assert.equal(parseServeArgs(["-h"]).help, true);
  });

  it("is registered with a summary", () => {
    const entry = COMMAND_REGISTRY.find((candidate) => candidate.name === "serve");
    assert.match(entry?.summary ?? "", /SageMaker/);
  });
});
