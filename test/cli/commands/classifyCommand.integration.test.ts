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

/** An outcome without what differs from run to run (times). */
function stable(outcome: Record<string, unknown>): Record<string, unknown> {
  const { created_at: _created, updated_at: _updated, timings: _timings, ...rest } = outcome;
  return rest;
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
    ]);

    assert.equal(code, 0, rerun.stderr());
    assert.match(rerun.stderr(), new RegExp(`resuming, ${before} outcome\\(s\\) already there`));
    const resumed = await outcomesIn(partial);
    const ids = resumed.map((outcome) => outcome.id as string);
    assert.equal(new Set(ids).size, ids.length, "no item twice");
    assert.equal(ids.length, ITEMS);
    const byId = (list: Record<string, unknown>[]) =>
      [...list].sort((a, b) => String(a.id).localeCompare(String(b.id))).map(stable);
    assert.deepEqual(byId(resumed), byId(await outcomesIn(full)));
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
