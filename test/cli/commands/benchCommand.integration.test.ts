import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";

const run = promisify(execFile);

describe("decisions bench", () => {
  it("runs --quick end to end on a tiny model and writes the report and the chart", async () => {
    const model = await ensureGeneratedModel("tiny-qwen3");
    const out = await mkdtemp(join(tmpdir(), "bench-"));
    try {
      const { stdout } = await run(
        process.execPath,
        ["bin/decisions.js", "bench", "--quick", "--model", model, "--threads", "2", "--out", out],
        { maxBuffer: 16 * 1024 * 1024, timeout: 300_000 },
      );
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
