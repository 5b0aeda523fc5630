import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { readServerConfig, SERVER_SETTINGS } from "../../../adapter/server/config.js";
import { COMMAND_REGISTRY } from "../../../cli/commandRegistry.js";
import { parseServeArgs, serveUsage } from "../../../cli/commands/serveCommand.js";
import { UsageError } from "../../../cli/errors.js";

const REPO_ROOT = new URL("../../../", import.meta.url).pathname;

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

  it("serves a generated model with --generate, without a GGUF given, until SIGTERM", async () => {
    // prepare: the CLI from the sources, on a free port, the model cache of this checkout
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "test/adapter/server/runCli.fixture.ts",
        "serve",
        "--generate",
        "tiny-llama",
        "--port",
        "0",
        "--threads",
        "1",
      ],
      { cwd: REPO_ROOT, env: { ...process.env, SEMIF_HOST: "127.0.0.1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    try {
      // act: wait for the ready line, then ask /ping
      const ready = await new Promise<{ port: number; model: { architecture: string } }>(
        (resolve, reject) => {
          const look = (): void => {
            const lines = stdout.split("\n").filter((line) => line.startsWith("{"));
            const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
            const listening = events.find((event) => event.event === "listening");
            const readyLine = events.find((event) => event.event === "ready");
            if (listening !== undefined && readyLine !== undefined) {
              resolve({ port: listening.port as number, model: readyLine.model as { architecture: string } });
            }
          };
          child.stdout.on("data", look);
          void exited.then((code) => reject(new Error(`exited ${code}: ${stdout}${stderr}`)));
        },
      );
      const ping = await fetch(`http://127.0.0.1:${ready.port}/ping`);
      child.kill("SIGTERM");

      // assert
      assert.equal(ping.status, 200);
      assert.equal(ready.model.architecture, "llama");
      assert.match(stdout, /"event":"model_verified"/, "the generated model has its manifest");
      assert.equal(await exited, 0, stderr);
    } finally {
      clearTimeout(killer);
      child.kill("SIGKILL");
    }
  });
});
