import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatJevBenchComparison } from "../../../evaluation/jevbench/formatJevBenchComparison.js";
import { formatJevBenchReport } from "../../../evaluation/jevbench/formatJevBenchReport.js";
import { type PlannedCase, summarizeJevBench } from "../../../evaluation/jevbench/summarizeJevBench.js";
import type { JevBenchRecord } from "../../../evaluation/jevbench/types.js";

const planned = (
  id: string,
  family: string,
  group: string | null,
  expected: string | number,
  type = "choice",
): PlannedCase => ({
  id,
  file: id.startsWith("h") ? "hard" : "original",
  family,
  group,
  labels: type === "score" ? ["0", "1", "2"] : ["a", "b"],
  expected,
  question: { type },
});

const record = (
  id: string,
  expected: string,
  probabilities: Record<string, number> | undefined,
  latency: number,
  answered: { prompt_version: string; input_tokens: number } | Record<string, never> = {},
): JevBenchRecord => {
  const predicted =
    probabilities === undefined
      ? undefined
      : Object.keys(probabilities)
          .sort()
          .reduce((best, label) =>
            (probabilities[label] ?? 0) > (probabilities[best] ?? -1) ? label : best,
          );
  return {
    id,
    file: "x",
    family: "x",
    group: null,
    valid: probabilities !== undefined,
    expected,
    correct: predicted === expected,
    latency_ms: latency,
    ...(probabilities === undefined ? {} : { predicted, probabilities }),
    ...answered,
  };
};

describe("summarizeJevBench", () => {
  const cases = [
    planned("o1", "f1", "g1", "a"),
    planned("o2", "f1", "g1", "b"),
    planned("h1", "f1", "g2", "a"),
    planned("h2", "f2", null, 2, "score"),
  ];
  const records = [
    record("o1", "a", { a: 0.9, b: 0.1 }, 10, { prompt_version: "question-first-v1", input_tokens: 100 }),
    record("o2", "b", { a: 0.6, b: 0.4 }, 20, { prompt_version: "question-first-v1", input_tokens: 50 }),
    record("h1", "a", undefined, 30),
    record("h2", "2", { "0": 0.1, "1": 0.2, "2": 0.7 }, 40, {
      prompt_version: "direct-options-v1",
      input_tokens: 30,
    }),
  ];
  const run = {
    model: "m",
    model_file: "m.gguf",
    generated: true,
    files: ["original", "hard"],
    started_at: "2026-01-01T00:00:00.000Z",
  };

  it("scores as JevBench: invalid counts wrong, Brier and ECE over the valid answers (hand-computed)", () => {
    const summary = summarizeJevBench(cases, records);

    assert.deepEqual(
      [summary.n_planned, summary.n_attempted, summary.n_valid, summary.n_correct, summary.accuracy],
      [4, 4, 3, 2, 0.5],
    );
    // o1: 0.01 + 0.01; o2: 0.36 + 0.36; h2: 0.01 + 0.04 + 0.09.
    assert.ok(Math.abs(summary.brier_mean - (0.02 + 0.72 + 0.14) / 3) < 1e-12);
    // Bins: 0.9 right, 0.6 wrong, 0.7 right → (|1 − 0.9| + |0 − 0.6| + |1 − 0.7|) / 3.
    assert.ok(Math.abs(summary.ece.ece - (0.1 + 0.6 + 0.3) / 3) < 1e-12);
    // h2: E[level] = 0.2 + 1.4 = 1.6, |1.6 − 2| = 0.4.
    assert.ok(Math.abs((summary.ordinal_mae ?? 0) - 0.4) < 1e-12);
  });

  it("reports per family and file, the macro accuracy, paraphrase consistency and latency percentiles", () => {
    const summary = summarizeJevBench(cases, records);

    assert.deepEqual(Object.keys(summary.per_family), ["f1", "f2"]);
    assert.equal(summary.per_family.f1?.accuracy, 1 / 3);
    assert.equal(summary.per_family.f2?.accuracy, 1);
    assert.equal(summary.macro_accuracy, (1 / 3 + 1) / 2);
    assert.deepEqual(Object.keys(summary.per_file), ["hard", "original"]);
    // One two-case group (g1): both valid, both predicted "a", only one right.
    assert.deepEqual(summary.paraphrase_consistency, {
      pairs: 1,
      both_valid: 1,
      agree: 1,
      agreement: 1,
      both_correct_rate_all_pairs: 0,
    });
    assert.equal(summary.latency.p50_ms, 25);
    assert.ok(Math.abs(summary.latency.p95_ms - 38.5) < 1e-9);
  });

  it("counts the prompt versions the engine answered with and the mean prompt tokens of the answered cases", () => {
    const summary = summarizeJevBench(cases, records);

    assert.deepEqual(summary.prompt_versions, { "question-first-v1": 2, "direct-options-v1": 1 });
    assert.equal(summary.input_tokens_mean, 60);
    assert.deepEqual(summarizeJevBench(cases, []).prompt_versions, {});
    assert.equal(summarizeJevBench(cases, []).input_tokens_mean, null);
  });

  it("writes a Markdown report with the headline figures and links to its charts", () => {
    const markdown = formatJevBenchReport(summarizeJevBench(cases, records), { ...run, layout: "auto" });

    assert.match(markdown, /; layout auto;/);
    assert.match(markdown, /\| prompt_version answered \| question-first-v1 × 2, direct-options-v1 × 1 \|/);
    assert.match(markdown, /\| prompt tokens per case \(mean\) \| 60\.0 \|/);
    assert.match(markdown, /\| valid responses \| 3\/4 \|/);
    assert.match(markdown, /paraphrase consistency \| 1\/1 = 1\.000 \(1 pairs\)/);
    assert.match(markdown, /random weights/);
    assert.match(markdown, /\[Reliability diagram\]\(reliability\.svg\)/);
  });

  it("puts several layouts side by side, one row each with a link to its own report", () => {
    const first = summarizeJevBench(cases, records);
    const second = summarizeJevBench(cases, records.slice(0, 2));

    const markdown = formatJevBenchComparison(
      { ...run, layouts: ["direct-options-v1", "question-first-v1"] },
      [
        { layout: "direct-options-v1", summary: first, report: "direct-options-v1/jevbench.md" },
        { layout: "question-first-v1", summary: second, report: "question-first-v1/jevbench.md" },
      ],
    );

    const rows = markdown
      .split("\n")
      .filter((line) => /^\| (direct-options|question-first)-v1 \|/.test(line));
    assert.equal(rows.length, 2);
    assert.match(
      rows[0] ?? "",
      /^\| direct-options-v1 \| question-first-v1 × 2, direct-options-v1 × 1 \| 3\/4 \| 2\/4 = 0\.500 \|/,
    );
    assert.match(rows[1] ?? "", /^\| question-first-v1 \| question-first-v1 × 2 \| 2\/4 \| 1\/2 = 0\.500 \|/);
    assert.match(
      rows[1] ?? "",
      /\| 15 ms \| .* \| 75\.0 \| \[question-first-v1\]\(question-first-v1\/jevbench\.md\) \|$/,
    );
  });
});
