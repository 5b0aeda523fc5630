import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";

/** How long the bench may print nothing before it is taken for stalled (its progress lines reset it). */
const SILENT_MS = 300_000;

/**
 * Runs `decisions <args>` and resolves with its stdout once it exits 0. It is stopped only when it
 * prints nothing for {@link SILENT_MS}: a slow, busy machine is waited for, a stalled bench is not.
 */
function runCli(args: readonly string[]): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/decisions.js", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let watchdog: NodeJS.Timeout | undefined;
    const heard = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => child.kill("SIGKILL"), SILENT_MS);
    };
    heard();
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      heard();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      heard();
    });
    child.on("error", (error) => {
      clearTimeout(watchdog);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(watchdog);
      if (code === 0) resolve({ stdout });
      else
        reject(
          new Error(`decisions ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}:\n${stderr}`),
        );
    });
  });
}

describe("decisions bench", () => {
  it("runs --quick end to end on a tiny model and writes the report and the chart", async () => {
    const model = await ensureGeneratedModel("tiny-qwen3");
    const out = await mkdtemp(join(tmpdir(), "bench-"));
    try {
      const { stdout } = await runCli(["bench", "--quick", "--model", model, "--threads", "2", "--out", out]);
      assert.match(stdout, /^P1 /m);
      assert.match(stdout, /^P6 /m);
      const files = (await readdir(out)).sort();
      assert.equal(files.length, 2);
      const json = files.find((file) => file.endsWith(".json"));
      const svg = files.find((file) => file.endsWith(".svg"));
      assert.ok(json && svg);
      const report = JSON.parse(await readFile(join(out, json), "utf8"));
      assert.equal(report.P2_short, null, "the quick run leaves the short-question variant out");
      for (const key of ["P1", "P1_cold", "P2", "P3", "P4", "P6"]) {
        assert.equal(typeof report[key].value, "number", key);
        assert.ok(Number.isFinite(report[key].value), key);
        assert.equal(typeof report[key].goal, "string", key);
        assert.equal(typeof report[key].met, "boolean", key);
      }
      assert.equal(report.P6.details.valid, report.P6.details.cases, "every JevBench answer is valid");
      assert.equal(report.P4.details.readout_valid_share, 1);
      assert.equal(report.length_table.length, 3);
      assert.equal(report.model.architecture, "qwen3");
      assert.match(await readFile(join(out, svg), "utf8"), /^<svg [^>]*>[\s\S]*<polyline[\s\S]*<\/svg>\n$/);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
