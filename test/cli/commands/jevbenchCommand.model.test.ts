import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { getLlama, type Llama, type LlamaModel } from "node-llama-cpp";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import {
  createJevBenchCommand,
  type JevBenchCommandTestOptions,
} from "../../../cli/commands/jevbenchCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { loadJevBench } from "../../../evaluation/jevbench/loadJevBench.js";

function capture(): { text: () => string; write: (chunk: string) => boolean } {
  let text = "";
  return {
    text: () => text,
    write: (chunk) => {
      text += chunk;
      return true;
    },
  };
}

describe("decisions jevbench", () => {
  let dir: string;
  // The binding and the default model (the generated tiny-qwen3) loaded once for the three runs;
  // each run still creates and disposes its own scorer, from an empty cache.
  let llama: Llama;
  let model: LlamaModel;
  let loaded: JevBenchCommandTestOptions;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "jevbench-"));
    llama = await getLlama({ gpu: false, build: "never", maxThreads: 2, logLevel: "error" as never });
    model = await llama.loadModel({ modelPath: await ensureGeneratedModel("tiny-qwen3") });
    loaded = { loaded: { llama, model } };
  });

  after(async () => {
    await model.dispose();
    await llama.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers all 231 public cases validly on a generated tiny-qwen3 in direct-options-v1 (no --layout given) and writes the report with its charts", async () => {
    const stdout = capture();
    const stderr = capture();
    const out = join(dir, "all");

    // One run, all cases: the default model is the generated tiny-qwen3, the default layout
    // direct-options-v1 (one run for both).
    const code = await createJevBenchCommand({ stdout, stderr }, loaded).run([
      "--out",
      out,
      "--threads",
      "2",
    ]);

    assert.equal(code, 0, stderr.text());
    const { run, summary, records } = JSON.parse(await readFile(join(out, "jevbench.json"), "utf8"));
    assert.equal(summary.n_planned, 231);
    assert.equal(summary.n_valid, 231);
    assert.equal(records.length, 231);
    // Every case answered validly, checked here rather than trusting `valid` (the engine's test,
    // Scorer.model.test.ts, leaves the full run of the 231 cases to this one): a distribution over
    // exactly the case's labels, each value in [0, 1], summing to 1 within 1e-6, input tokens counted.
    const labelsById = new Map((await loadJevBench()).map((testCase) => [testCase.id, testCase.labels]));
    assert.equal(labelsById.size, 231);
    for (const record of records as {
      id: string;
      valid: boolean;
      probabilities?: Record<string, number>;
      input_tokens?: number;
    }[]) {
      assert.equal(record.valid, true, record.id);
      assert.deepEqual(
        new Set(Object.keys(record.probabilities ?? {})),
        new Set(labelsById.get(record.id)),
        record.id,
      );
      const values = Object.values(record.probabilities ?? {});
      assert.ok(
        values.every((p) => Number.isFinite(p) && p >= 0 && p <= 1),
        record.id,
      );
      assert.ok(Math.abs(values.reduce((a, b) => a + b, 0) - 1) < 1e-6, record.id);
      assert.ok((record.input_tokens ?? 0) > 0, record.id);
    }
    assert.deepEqual(new Set(records.map((record: { id: string }) => record.id)), new Set(labelsById.keys()));
    assert.equal(run.generated, true);
    assert.equal(run.layout, "direct-options-v1");
    assert.deepEqual(summary.prompt_versions, { "direct-options-v1": 231 });
    assert.deepEqual(Object.keys(summary.per_file).sort(), ["easy", "hard", "original"]);
    assert.equal(summary.per_file.original.n_planned, 72);
    assert.equal(summary.paraphrase_consistency.pairs, 36);
    assert.equal(summary.paraphrase_consistency.both_valid, 36);
    assert.ok(summary.latency.p95_ms >= summary.latency.p50_ms && summary.latency.p50_ms > 0);
    assert.ok(summary.brier_mean >= 0 && summary.brier_mean <= 2);
    assert.ok(summary.ece.ece >= 0 && summary.ece.ece <= 1);
    assert.equal(
      Object.values(summary.per_family).reduce(
        (n: number, f) => n + (f as { n_planned: number }).n_planned,
        0,
      ),
      231,
    );
    assert.deepEqual((await readdir(out)).sort(), [
      "coverage.svg",
      "jevbench.json",
      "jevbench.md",
      "reliability.svg",
    ]);
    const markdown = await readFile(join(out, "jevbench.md"), "utf8");
    assert.match(markdown, /\| valid responses \| 231\/231 \|/);
    assert.match(markdown, /\(reliability\.svg\)/);
    assert.match(markdown, /; layout direct-options-v1;/);
    assert.match(stdout.text(), /^valid 231\/231, accuracy \d+\/231/);
  });

  it("asks every case in the layout given with --layout and records it in the JSON and Markdown report", async () => {
    const stdout = capture();
    const stderr = capture();
    const out = join(dir, "question-first");

    const code = await createJevBenchCommand({ stdout, stderr }, loaded).run([
      ...["--out", out, "--threads", "2", "--limit", "2", "--layout", "question-first-v1"],
    ]);

    assert.equal(code, 0, stderr.text());
    const { run, summary, records } = JSON.parse(await readFile(join(out, "jevbench.json"), "utf8"));
    assert.equal(run.layout, "question-first-v1");
    assert.deepEqual(summary.prompt_versions, { "question-first-v1": 2 });
    assert.deepEqual(
      records.map((record: { prompt_version?: string }) => record.prompt_version),
      ["question-first-v1", "question-first-v1"],
    );
    const markdown = await readFile(join(out, "jevbench.md"), "utf8");
    assert.match(markdown, /; layout question-first-v1;/);
    assert.match(markdown, /\| prompt_version answered \| question-first-v1 × 2 \|/);
    assert.match(stdout.text(), /^valid 2\/2, .*, layout question-first-v1$/m);
  });

  it("runs the same cases in each of several layouts and writes them side by side", async () => {
    const stdout = capture();
    const stderr = capture();
    const out = join(dir, "both");

    const code = await createJevBenchCommand({ stdout, stderr }, loaded).run([
      ...["--out", out, "--threads", "2", "--limit", "2", "--layout", "direct-options-v1,question-first-v1"],
    ]);

    assert.equal(code, 0, stderr.text());
    assert.deepEqual((await readdir(out)).sort(), [
      "comparison.json",
      "comparison.md",
      "direct-options-v1",
      "question-first-v1",
    ]);
    const comparison = JSON.parse(await readFile(join(out, "comparison.json"), "utf8"));
    assert.deepEqual(comparison.run.layouts, ["direct-options-v1", "question-first-v1"]);
    assert.deepEqual(
      comparison.layouts.map((row: { layout: string; prompt_versions: object; n_valid: number }) => [
        row.layout,
        row.prompt_versions,
        row.n_valid,
      ]),
      [
        ["direct-options-v1", { "direct-options-v1": 2 }, 2],
        ["question-first-v1", { "question-first-v1": 2 }, 2],
      ],
    );
    const ids: string[][] = [];
    for (const layout of ["direct-options-v1", "question-first-v1"]) {
      const report = JSON.parse(await readFile(join(out, layout, "jevbench.json"), "utf8"));
      assert.equal(report.run.layout, layout);
      ids.push(report.records.map((record: { id: string }) => record.id));
    }
    assert.equal(ids[0]?.length, 2);
    assert.deepEqual(ids[1], ids[0], "the same cases in each layout");
    const markdown = await readFile(join(out, "comparison.md"), "utf8");
    assert.match(markdown, /^\| question-first-v1 \| question-first-v1 × 2 \| 2\/2 \|/m);
    assert.match(markdown, /\[direct-options-v1\]\(direct-options-v1\/jevbench\.md\)/);
    assert.match(stdout.text(), /^question-first-v1: valid 2\/2/m);
  });

  it("refuses a --layout the engine does not have, naming the ones it has", async () => {
    const command = createJevBenchCommand({ stdout: capture(), stderr: capture() });

    for (const layout of ["question-first", "auto,auto", "direct-options-v1,", ""]) {
      await assert.rejects(command.run(["--layout", layout]), (error: unknown) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.match(error.message, /--layout takes direct-options-v1, question-first-v1, auto\b/);
        return true;
      });
    }
  });

  it("refuses an unknown file name or a bad limit before loading any model", async () => {
    const command = createJevBenchCommand({ stdout: capture(), stderr: capture() });

    await assert.rejects(command.run(["--files", "easy,medium"]), UsageError);
    await assert.rejects(command.run(["--limit", "0"]), UsageError);
  });
});
