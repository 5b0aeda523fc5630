/**
 * `decisions bench --backlog` with a few items on the generated tiny-qwen3 (12: each of the two
 * rounds holds items of all three policies, the run shared states and single ones): the whole
 * local pipeline drains them and the report has its shape. No number that depends on the machine's
 * speed is asserted; that every item ended exactly once is.
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { benchCommand } from "../../../cli/commands/benchCommand.js";
import type { BacklogBenchReport } from "../../../lab/bench/backlog/index.js";

describe("decisions bench --backlog (integration, 12 items)", () => {
  let folder: string | undefined;

  after(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("drains every item through the pipeline and writes the report's numbers", {
    timeout: 900_000,
  }, async () => {
    folder = await mkdtemp(join(tmpdir(), "backlog-bench-"));

    const exitCode = await benchCommand.run([
      "--backlog",
      "--quick",
      "--items",
      "12",
      "--rounds",
      "2",
      "--out",
      folder,
    ]);

    const files = (await readdir(folder)).filter((name) => /^backlog-.*\.json$/.test(name));
    assert.equal(files.length, 1);
    const report = JSON.parse(await readFile(join(folder, files[0] as string), "utf8")) as BacklogBenchReport;
    assert.equal(exitCode, report.goal_met ? 0 : 1);
    assert.equal(report.items, 12);
    assert.deepEqual(report.check.violations, []);
    assert.equal(report.lost, 0);
    assert.equal(report.not_drained, 0);
    assert.equal(report.dead_lettered, 0);
    assert.equal(report.check.counts.decided, 12);
    assert.equal(report.check.counts.duplicates, 0);
    assert.deepEqual(Object.keys(report.workload.policies).sort(), [
      "batch-classification",
      "incident-priority",
      "ticket-routing",
    ]);
    assert.ok(report.goodput_ratio > 0 && Number.isFinite(report.goodput_ratio));
    assert.ok(report.endpoint_calls >= report.workload.distinct_requests);
    assert.ok(report.refused_share >= 0 && report.refused_share <= 1);
    assert.equal(report.adapter_alone.runs.length, 2);
    assert.deepEqual(
      report.rounds.map((round) => [round.items, round.order]),
      [
        [6, "alone first"],
        [6, "pipeline first"],
      ],
    );
    // Sized as the CDK app sizes a deployment for 1 running + 8 waiting: 2 instances × 4 groups.
    assert.deepEqual([report.setup.instances, report.setup.max_concurrent_groups], [2, 4]);
    assert.ok(report.setup.calls_in_flight <= 9);
    for (const round of report.rounds) {
      assert.ok(round.endpoint.calls > 0);
      assert.ok(round.endpoint.busy_share > 0 && round.endpoint.busy_share <= 1);
    }
    for (const phase of ["warm_up", "adapter_alone", "pipeline"] as const) {
      assert.ok(Number(report.cpu_seconds[phase].wall_s) > 0, phase);
      assert.ok("DynamoDB Local" in report.cpu_seconds[phase], phase);
    }
  });
});
