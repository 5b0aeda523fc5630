import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createJevBenchCommand } from "../../../cli/commands/jevbenchCommand.js";
import { UsageError } from "../../../cli/errors.js";

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

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "jevbench-"));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("answers all 231 public cases validly on a generated tiny-qwen3 and writes the report with its charts", async () => {
    const stdout = capture();
    const stderr = capture();

    // One run, all cases: the default model is the generated tiny-qwen3.
    const code = await createJevBenchCommand({ stdout, stderr }).run(["--out", dir, "--threads", "2"]);

    assert.equal(code, 0, stderr.text());
    const { run, summary, records } = JSON.parse(await readFile(join(dir, "jevbench.json"), "utf8"));
    assert.equal(summary.n_planned, 231);
    assert.equal(summary.n_valid, 231);
    assert.equal(records.length, 231);
    assert.equal(run.generated, true);
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
    assert.deepEqual((await readdir(dir)).sort(), [
      "coverage.svg",
      "jevbench.json",
      "jevbench.md",
      "reliability.svg",
    ]);
    const markdown = await readFile(join(dir, "jevbench.md"), "utf8");
    assert.match(markdown, /\| valid responses \| 231\/231 \|/);
    assert.match(markdown, /\(reliability\.svg\)/);
    assert.match(stdout.text(), /^valid 231\/231, accuracy \d+\/231/);
  });

  it("refuses an unknown file name or a bad limit before loading any model", async () => {
    const command = createJevBenchCommand({ stdout: capture(), stderr: capture() });

    await assert.rejects(command.run(["--files", "easy,medium"]), UsageError);
    await assert.rejects(command.run(["--limit", "0"]), UsageError);
  });
});
