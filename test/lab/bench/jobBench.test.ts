/**
 * The parts of `decisions bench --job` that need no stack: the object it uploads, the table it
 * prints, and the flags it refuses. The run itself (the local pipeline on 20,000 lines) is what
 * test/core/jobs/jobScale.integration.test.ts does without the measuring.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { benchCommand } from "../../../cli/commands/benchCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { buildJobObject, formatJobReport, type JobBenchReport } from "../../../lab/bench/jobs/index.js";

describe("buildJobObject", () => {
  it("writes one line per requested line: every n-th not JSON, the others ticket-routing items in runs of one state", () => {
    const object = buildJobObject({ lines: 250, distinctStates: 3, run: 20, invalidEvery: 50 });
    const lines = object.body.split("\n");
    assert.equal(lines.pop(), "", "the object ends with a newline");
    assert.equal(lines.length, 250);
    assert.equal(object.bytes, Buffer.byteLength(object.body));
    assert.equal(object.invalid, 5);
    const states: string[] = [];
    for (const [index, text] of lines.entries()) {
      const line = index + 1;
      if (line % 50 === 0) {
        assert.throws(() => JSON.parse(text), SyntaxError, `line ${line} is not JSON`);
        assert.equal(object.ids[index], undefined);
        continue;
      }
      const item = JSON.parse(text) as { id: string; policy: string; state: { subject: string } };
      assert.equal(item.id, `jb-${line}`);
      assert.equal(object.ids[index], item.id);
      assert.equal(item.policy, "ticket-routing");
      states[index] = item.state.subject;
    }
    // Runs of 20 lines share a state; 3 states in turn.
    assert.equal(states[0], states[19]);
    assert.notEqual(states[19], states[20]);
    assert.equal(states[0], states[60]);
    assert.equal(new Set(states.filter((state) => state !== undefined)).size, 3);
  });

  it("writes no broken line when invalidEvery is 0", () => {
    const object = buildJobObject({ lines: 120, invalidEvery: 0 });
    assert.equal(object.invalid, 0);
    assert.ok(object.ids.every((id) => id !== undefined));
  });
});

describe("formatJobReport", () => {
  it("prints the command and each figure of the run", () => {
    const report: JobBenchReport = {
      command: "decisions bench --job --lines 20000 --batch-size 100",
      started_at: "2026-12-02T13:54:30.479Z",
      duration_s: 468,
      machine: {
        cpu: "AMD EPYC",
        cores: 2,
        memory_gib: 24,
        node: "v22.23.5",
        load_average_start: [4.52, 5.39, 5.13],
        load_average_end: [11.71, 8.85, 6.83],
      },
      model: ".cache/models/tiny-qwen3-seed42.gguf",
      object: { lines: 20000, bytes: 4533974, distinct_states: 20, invalid_lines: 400 },
      event_source: { batch_size: 100, maximum_concurrency: 2 },
      ingest: {
        ms: 166147,
        lines_per_s: 120.4,
        invocations: 1,
        sent: 19600,
        rejected: 400,
        memory: { peak_rss_mib: 147.3, growth_mib: 25.4 },
      },
      drain: { first_outcome_after_ms: 1842, ended_after_ms: 430992, lines_per_s: 46.6 },
      results: {
        write_ms: 10007,
        ended_to_completed_ms: 10076,
        result_bytes: 8536568,
        part_bytes: null,
        memory: { peak_rss_mib: 156.7, growth_mib: 39.6 },
      },
      job: {
        job_id: "job-1",
        status: "complete_with_errors",
        counts: {
          lines: 20000,
          sent: 19600,
          rejected_at_ingest: 400,
          outcomes: { decided: 0, fallback: 19600, overridden: 0, rejected: 400 },
          dead_lettered: 0,
          ended: 20000,
          duplicates: 0,
        },
        results_uri: "s3://ingest/results/job-1/results.jsonl",
      },
      total_ms: 441068,
      progress: [],
    };
    const text = formatJobReport(report);
    assert.ok(text.startsWith("decisions bench --job --lines 20000 --batch-size 100\n"));
    for (const expected of [
      "100 records per decide invocation, 2 at once",
      "120.4 lines/s (166.1 s, 1 invocation(s), 19600 sent, 400 rejected)",
      "147.3 MiB (+25.4 MiB over its start)",
      "46.6 lines/s (first line end 1.8 s, last 431.0 s after the upload)",
      "10.08 s (the writer's write 10.01 s, 8.14 MiB)",
      "156.7 MiB (+39.6 MiB over its start)",
      "441.1 s",
      "4.52, 5.39, 5.13 → 11.71, 8.85, 6.83",
    ]) {
      assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    }
  });
});

describe("decisions bench --job flags", () => {
  it("refuses --lines and --batch-size without --job, and --job beside another run", async () => {
    await assert.rejects(benchCommand.run(["--lines", "10"]), UsageError);
    await assert.rejects(benchCommand.run(["--batch-size", "10"]), UsageError);
    await assert.rejects(benchCommand.run(["--job", "--backlog"]), /separate runs/);
  });

  it("refuses a line count or batch size out of range before starting anything", async () => {
    await assert.rejects(benchCommand.run(["--job", "--lines", "0"]), /--lines must be an integer/);
    await assert.rejects(
      benchCommand.run(["--job", "--batch-size", "20000"]),
      /--batch-size must be an integer/,
    );
  });
});
