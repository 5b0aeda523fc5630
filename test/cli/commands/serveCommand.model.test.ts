/**
 * `decisions serve --generate` as a process: the CLI generates the tiny model and loads it with
 * llama.cpp in the child, so this runs with the model tests (`npm test`), not in the unit run.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";

const REPO_ROOT = new URL("../../../", import.meta.url).pathname;

describe("decisions serve as a process", () => {
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
