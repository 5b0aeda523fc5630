/**
 * The pipeline bench's quick run (`decisions bench --pipeline --quick`) on the generated tiny-qwen3,
 * with fewer items per measurement than the command's (P5 8, grouping 12, one batch per overhead
 * size): the report's shape (the figures' values depend on the machine, so none is asserted
 * beyond being measured).
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  formatPipelineReport,
  type PipelineBenchReport,
  runPipelineBench,
} from "../../../lab/bench/pipeline/index.js";

describe("bench --pipeline, quick and smaller (integration)", () => {
  let folder: string | undefined;

  after(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("writes a report with P5, the grouping gain and the overhead per batch size", {
    timeout: 900_000,
  }, async () => {
    folder = await mkdtemp(join(tmpdir(), "pipeline-bench-"));

    const { report: returned } = await runPipelineBench({
      env: process.env,
      quick: true,
      sizes: { p5: 8, grouping: 12, overhead: 1 },
      outDir: folder,
    });

    const files = (await readdir(folder)).filter((name) => /^pipeline-.*\.json$/.test(name));
    assert.equal(files.length, 1);
    const report = JSON.parse(
      await readFile(join(folder, files[0] as string), "utf8"),
    ) as PipelineBenchReport;
    assert.equal(report.started_at, returned.started_at, "the JSON is the report returned");
    assert.match(formatPipelineReport(report), /^P5 {2}\d/m);
    assert.equal(report.quick, true);
    assert.match(report.model, /tiny-qwen3/);
    assert.ok(report.P5.value > 0 && Number.isFinite(report.P5.value));
    assert.equal(report.P5.goal, ">= 0.95");
    assert.equal(report.P5.met, report.P5.value >= 0.95);
    for (const side of ["adapter_alone", "pipeline"]) {
      const run = report.P5.details[side] as { items: number; decisions_per_s: number };
      assert.ok(run.items > 0 && run.decisions_per_s > 0, side);
    }
    const { grouping } = report;
    assert.ok(grouping.distinct_states < grouping.items, "the stream holds duplicates");
    assert.ok(
      grouping.ratio > 0 && grouping.ratio < 1,
      "grouping sends fewer tokens than one question per request",
    );
    assert.ok(grouping.token_count_limit > 0 && grouping.token_count_limit <= grouping.ratio);
    assert.deepEqual(
      report.overhead.map((row) => row.batch_size),
      [1, 5, 10],
    );
    for (const row of report.overhead) assert.ok(row.adapter_ms > 0 && row.wall_ms >= row.adapter_ms);
    assert.equal(report.machine.load_average_start.length, 3);
    // Where the cores went: the adapter worked in both runs; on Linux every part is read from /proc.
    for (const phase of ["adapter_alone", "pipeline"] as const) {
      const parts = report.cpu_seconds[phase];
      assert.ok((parts.wall_s as number) > 0, phase);
      if (process.platform === "linux")
        assert.ok((parts.adapter as number) > 0, `${phase}: ${JSON.stringify(parts)}`);
    }
  });
});
