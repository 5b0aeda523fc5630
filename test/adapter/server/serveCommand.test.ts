import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageError } from "../../../adapter/cli/main.js";
import { parseServeArgs, serveCommand, serveUsage } from "../../../adapter/cli/serveCommand.js";
import { readServerConfig, SERVER_SETTINGS } from "../../../adapter/server/config.js";

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

  it("refuses unknown flags, missing values and positional arguments as usage errors", () => {
    assert.throws(() => parseServeArgs(["--nope"]), UsageError);
    assert.throws(() => parseServeArgs(["--port"]), UsageError);
    assert.throws(() => parseServeArgs(["extra"]), UsageError);
  });

  it("documents every flag with its variable and default in --help", () => {
    const usage = serveUsage();
    for (const setting of SERVER_SETTINGS) {
      assert.ok(usage.includes(`--${setting.flag}`), setting.flag);
      for (const name of setting.env) assert.ok(usage.includes(name), name);
    }
    assert.equal(parseServeArgs(["-h"]).help, true);
  });

  it("is registered with a summary", () => {
    assert.match(serveCommand.summary, /SageMaker/);
  });
});
