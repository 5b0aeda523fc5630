/**
 * Loading and the saved-state cache's failures: a file that cannot be a model is a ModelLoadError
 * (never an unhandled rejection), and a cache that cannot write never fails a request.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { getLlama, type Llama, type LlamaModel } from "node-llama-cpp";
import { ModelLoadError } from "../../../adapter/engine/errors.js";
import { Scorer } from "../../../adapter/engine/Scorer.js";
import type { DecisionQuestion } from "../../../adapter/engine/types.js";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";

const route: DecisionQuestion = {
  id: "route",
  question: "Which team should handle this ticket?",
  options: [
    { id: "billing", description: "Billing and payments" },
    { id: "technical", description: "Technical support" },
  ],
};

/** A state long enough (beyond 32 tokens) to be saved as a state file. */
function longState(topic: string): string {
  return `Ticket about ${topic}. ${"The customer attached three invoices and a screenshot of the crash report. ".repeat(4)}`;
}

/** Runs `act` and returns every unhandled rejection seen while it ran and shortly after. */
async function unhandledRejectionsDuring(act: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown): void => {
    seen.push(reason);
  };
  process.on("unhandledRejection", listener);
  try {
    await act();
    // A promise nobody awaits (the old hash of a missing file) rejects a moment after the load
    // failed: give it the time to surface. Nothing is asserted about durations.
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

describe("Scorer.load on a file that is not a usable model", () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "scorer-load-"));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  // Running as root, permission bits do not stop a read (chmod 000 stays readable), so a folder
  // stands for a path that exists but cannot be read as a file (EISDIR).
  const cases: { name: string; path: () => Promise<string> }[] = [
    { name: "a missing file", path: async () => join(folder, "missing.gguf") },
    {
      name: "a folder (exists, cannot be read as a file)",
      path: async () => {
        const path = join(folder, "folder.gguf");
        await mkdir(path, { recursive: true });
        return path;
      },
    },
    {
      name: "a file that is not a GGUF",
      path: async () => {
        const path = join(folder, "text.gguf");
        await writeFile(path, "this is not a model\n".repeat(100));
        return path;
      },
    },
  ];
  for (const testCase of cases) {
    it(`rejects ${testCase.name} with ModelLoadError, leaving no promise unhandled`, async () => {
      const modelPath = await testCase.path();
      const unhandled = await unhandledRejectionsDuring(async () => {
        await assert.rejects(Scorer.load({ modelPath, threads: 1 }), (error: unknown) => {
          assert.ok(error instanceof ModelLoadError, `got ${String(error)}`);
          assert.ok(error.message.includes(modelPath));
          assert.ok(error.cause !== undefined, "the reason is kept as the cause");
          return true;
        });
      });
      assert.deepEqual(unhandled, []);
    });
  }
});

describe("Scorer's saved-state cache when it cannot write", () => {
  let modelPath: string;
  let folder: string;
  // One binding and one model for the scorers of these tests: each creates only its own context
  // and its own state-file cache, the part under test.
  let llama: Llama;
  let model: LlamaModel;
  let loaded: { modelPath: string; llama: Llama; model: LlamaModel };
  before(async () => {
    modelPath = await ensureGeneratedModel("tiny-qwen3");
    folder = await mkdtemp(join(tmpdir(), "scorer-cache-"));
    llama = await getLlama({ gpu: false, build: "never", maxThreads: 2, logLevel: "error" as never });
    model = await llama.loadModel({ modelPath });
    loaded = { modelPath, llama, model };
  });
  after(async () => {
    await model.dispose();
    await llama.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it("creates no folder at all when cacheMaxBytes is 0", async () => {
    const cacheDir = await mkdtemp(join(folder, "off-"));
    await using scorer = await Scorer.load({ ...loaded, threads: 2, cacheMaxBytes: 0, cacheDir });
    const { results } = await scorer.scoreBatch({ state: longState("billing"), questions: [route] });
    assert.equal(results.length, 1);
    assert.deepEqual(await readdir(cacheDir), []);
    assert.equal(scorer.cacheStats().state_files, 0);
  });

  it("loads and answers when its folder cannot be made, counting the failed saves", async () => {
    // A regular file where the cache's parent folder should be: no folder can be made inside it.
    const notAFolder = join(folder, "not-a-folder");
    await writeFile(notAFolder, "");
    await using scorer = await Scorer.load({ ...loaded, threads: 2, cacheDir: notAFolder });
    const { results } = await scorer.scoreBatch({ state: longState("refunds"), questions: [route] });
    assert.equal(results[0]?.probabilities.length, 2);
    const stats = scorer.cacheStats();
    assert.equal(stats.state_file_save_failures, 1);
    assert.ok(stats.last_state_file_error instanceof Error, "the error object is kept");
    assert.equal(stats.state_files, 0);
  });

  it("answers when its folder is removed between requests, counting the failed save", async () => {
    const cacheDir = await mkdtemp(join(folder, "removed-"));
    await using scorer = await Scorer.load({ ...loaded, threads: 2, cacheDir });
    await scorer.scoreBatch({ state: longState("logins"), questions: [route] });
    assert.equal(scorer.cacheStats().state_files, 1);
    for (const entry of await readdir(cacheDir)) await rm(join(cacheDir, entry), { recursive: true });
    const { results } = await scorer.scoreBatch({ state: longState("invoices"), questions: [route] });
    assert.equal(results[0]?.probabilities.length, 2);
    const stats = scorer.cacheStats();
    assert.equal(stats.state_file_save_failures, 1);
    assert.ok(stats.last_state_file_error instanceof Error);
    // The lost file of the first state costs an evaluation, not the request.
    const again = await scorer.scoreBatch({ state: longState("logins"), questions: [route] });
    assert.equal(again.results[0]?.probabilities.length, 2);
  });
});
