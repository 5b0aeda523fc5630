/**
 * `decisions classify` on the generated tiny-qwen3 model with the real engine: a run killed with
 * SIGKILL after some outcomes, then rerun, ends with every item exactly once and the same outcomes
 * as an uninterrupted run.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { createClassifyCommand } from "../../../cli/commands/classifyCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { JobManifestSchema, JobResultLineSchema } from "../../../contract/index.js";

const CHILD = fileURLToPath(new URL("../../operations/classify/runClassify.fixture.ts", import.meta.url));
const ITEMS = 40;

function capture() {
  let out = "";
  let err = "";
  const command = createClassifyCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text), isTTY: false },
  });
  return { command, stdout: () => out, stderr: () => err };
}

async function outcomesIn(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

/**
 * An outcome without what differs from run to run: times, and how the request's prompt tokens
 * split between evaluated and served from the engine's cache (a resumed run starts with another
 * cache than an uninterrupted one; the prompt's token count itself must match).
 */
function stable(outcome: Record<string, unknown>): Record<string, unknown> {
  const { created_at: _created, updated_at: _updated, timings: _timings, ...rest } = outcome;
  if (typeof rest.request !== "object" || rest.request === null) return rest;
  const {
    evaluated_tokens: _evaluated,
    cached_tokens: _cached,
    ...request
  } = rest.request as Record<string, unknown>;
  return { ...rest, request };
}

async function lineCount(path: string): Promise<number> {
  try {
    if ((await stat(path)).size === 0) return 0;
    return (await readFile(path, "utf8")).split("\n").length - 1;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}

describe("decisions classify (tiny-qwen3)", () => {
  let dir: string;
  let model: string;
  let items: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "classify-"));
    model = await ensureGeneratedModel("tiny-qwen3");
    items = join(dir, "items.jsonl");
    const lines = Array.from({ length: ITEMS }, (_, index) =>
      JSON.stringify({
        id: `t-${index}`,
        policy: "ticket-routing",
        // Every fourth item shares its state with the one before: some groups have two items.
        state: { subject: `ticket ${index - (index % 4 === 3 ? 1 : 0)}`, body: "It stopped working.", n: 2 },
        facts: { customer_tier: index % 2 === 0 ? "enterprise" : "free" },
      }),
    );
    await writeFile(items, `${lines.join("\n")}\n`);
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("resumes a killed run: every item exactly once, outcomes as an uninterrupted run's", async () => {
    const full = join(dir, "full.jsonl");
    const uninterrupted = capture();
    const fullCode = await uninterrupted.command.run([
      items,
      "--policy",
      "ticket-routing",
      "--model",
      model,
      "--threads",
      "1",
      "--out",
      full,
      "--results",
      join(dir, "full.results.jsonl"),
    ]);
    assert.equal(fullCode, 0, uninterrupted.stderr());
    assert.match(
      uninterrupted.stdout(),
      new RegExp(`^classified ${ITEMS} item\\(s\\) with policy ticket-routing`),
    );
    assert.match(uninterrupted.stderr(), /classify \[.*\] 100% \| 40\/40 items/);

    const partial = join(dir, "partial.jsonl");
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        CHILD,
        "classify",
        items,
        "--policy",
        "ticket-routing",
        "--model",
        model,
        "--threads",
        "1",
        "--out",
        partial,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let childErr = "";
    child.stderr.on("data", (chunk) => (childErr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    while ((await lineCount(partial)) < 8 && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGKILL");
    assert.equal(await exited, "SIGKILL", childErr);
    const before = await lineCount(partial);
    assert.ok(before >= 8 && before < ITEMS, `killed after ${before} outcomes`);

    const rerun = capture();
    const code = await rerun.command.run([
      items,
      "--policy",
      "ticket-routing",
      "--model",
      model,
      "--threads",
      "1",
      "--out",
      partial,
      "--results",
      join(dir, "partial.results.jsonl"),
    ]);

    assert.equal(code, 0, rerun.stderr());
    // Results lines carry no times: a resumed run's are an uninterrupted run's, byte for byte.
    assert.equal(
      await readFile(join(dir, "partial.results.jsonl"), "utf8"),
      await readFile(join(dir, "full.results.jsonl"), "utf8"),
    );
    assert.match(rerun.stderr(), new RegExp(`resuming, ${before} outcome\\(s\\) already there`));
    const resumed = await outcomesIn(partial);
    const ids = resumed.map((outcome) => outcome.id as string);
    assert.equal(new Set(ids).size, ids.length, "no item twice");
    assert.equal(ids.length, ITEMS);
    const byId = (list: Record<string, unknown>[]) =>
      [...list].sort((a, b) => String(a.id).localeCompare(String(b.id))).map(stable);
    assert.deepEqual(byId(resumed), byId(await outcomesIn(full)));
  });

  it("writes the jobs' results format in input order and a manifest whose counts add up", async () => {
    const mixed = join(dir, "mixed.jsonl");
    const ticket = (id: string, subject: string) =>
      JSON.stringify({
        id,
        state: { subject, body: "It stopped working." },
        facts: { customer_tier: "free" },
      });
    await writeFile(
      mixed,
      [
        ticket("m-1", "printer"),
        "",
        "{ not json",
        ticket("m-2", "screen"),
        ticket("m-1", "printer again"),
        JSON.stringify({ id: "m-3", policy: "incident-priority", state: "db down" }),
        "",
      ].join("\n"),
    );
    const run = capture();
    const code = await run.command.run([
      mixed,
      "--policy",
      "ticket-routing",
      "--model",
      model,
      "--threads",
      "1",
    ]);
    assert.equal(code, 0, run.stderr());
    const results = (await readFile(join(dir, "mixed.results.jsonl"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JobResultLineSchema.parse(JSON.parse(line)));
    assert.deepEqual(
      results.map((line) => [line.line, line.id, line.duplicate ?? false]),
      [
        [1, "m-1", false],
        [3, "line-3", false],
        [4, "m-2", false],
        [5, "m-1", true],
        [6, "m-3", false],
      ],
    );
    assert.equal(results[1]?.status, "rejected");
    assert.match(results[1]?.reason ?? "", /JSON/);
    assert.equal(results[4]?.status, "rejected");
    // Another policy's item: rejected with the reason (its facts, or that --policy is another).
    assert.ok((results[4]?.reason ?? "") !== "");
    for (const line of [results[0], results[2]]) {
      assert.notEqual(line?.status, "rejected");
      for (const answer of Object.values(line?.answers ?? {})) {
        assert.ok(answer.probability >= 0 && answer.probability <= 1);
      }
      assert.ok(Object.keys(line?.answers ?? {}).length > 0);
    }
    const manifest = JobManifestSchema.parse(
      JSON.parse(await readFile(join(dir, "mixed.manifest.json"), "utf8")),
    );
    assert.equal(manifest.status, "complete_with_errors");
    assert.equal(manifest.result_lines, 5);
    assert.equal(manifest.counts.lines, 5);
    const outcomes = Object.values(manifest.counts.outcomes).reduce((sum, count) => sum + count, 0);
    assert.equal(manifest.counts.ended, outcomes + manifest.counts.dead_lettered);
    assert.equal(manifest.counts.ended, manifest.counts.lines);
    assert.equal(manifest.counts.outcomes.rejected, 2);
    assert.equal(manifest.counts.duplicates, 1);
    // m-1 and m-2 were decided by the model; the repeated m-1 shares m-1's outcome and cost.
    assert.equal(manifest.usage?.decisions, 2);
    assert.ok((manifest.usage?.input_tokens ?? 0) > 0, JSON.stringify(manifest.usage));
    assert.ok((manifest.usage?.evaluated_tokens ?? 0) > 0, JSON.stringify(manifest.usage));
    assert.ok(manifest.results_uri.endsWith("/mixed.results.jsonl"));
    assert.match(run.stdout(), /results: .*mixed\.results\.jsonl \(5 line\(s\), complete_with_errors\)/);
  });

  it("needs an items file and --policy", async () => {
    await assert.rejects(capture().command.run(["--policy", "ticket-routing"]), UsageError);
    await assert.rejects(capture().command.run([items]), UsageError);
    await assert.rejects(
      capture().command.run([items, "--policy", "no-such-policy", "--model", model]),
      /no policy "no-such-policy"/,
    );
  });
});
