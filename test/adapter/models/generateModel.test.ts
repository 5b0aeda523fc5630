import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  defaultModelCacheDir,
  ensureGeneratedModel,
  generateModel,
  MODEL_GENERATOR_VERSION,
  ModelGenerationError,
  readGeneratorVersion,
  sha256File,
} from "../../../adapter/models/index.js";

let folder: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), "generate-model-"));
});

after(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("generateModel", () => {
  for (const kind of ["tiny-llama", "tiny-qwen3", "tiny-qwen35"] as const) {
    it(`gives ${kind} the same sha256 for the same seed`, async () => {
      const first = await generateModel({ kind, out: join(folder, `${kind}-a.gguf`), seed: 7 });
      const second = await generateModel({ kind, out: join(folder, `${kind}-b.gguf`), seed: 7 });

      assert.equal(first.sha256, second.sha256);
      assert.equal(first.sizeBytes, second.sizeBytes);
    });
  }

  it("gives a different sha256 for a different seed", async () => {
    const first = await generateModel({ kind: "tiny-llama", out: join(folder, "seed-1.gguf"), seed: 1 });
    const second = await generateModel({ kind: "tiny-llama", out: join(folder, "seed-2.gguf"), seed: 2 });

    assert.notEqual(first.sha256, second.sha256);
  });

  it("reports the path, size and sha256 of the file it wrote, leaving no temporary file", async () => {
    const out = join(folder, "reported", "model.gguf");

    const result = await generateModel({ kind: "tiny-llama", out });

    assert.equal(result.path, out);
    assert.equal(result.kind, "tiny-llama");
    assert.equal(result.seed, 42);
    assert.equal(result.sizeBytes, (await stat(out)).size);
    assert.equal(result.sha256, await sha256File(out));
    assert.deepEqual(await readdir(join(folder, "reported")), ["model.gguf"]);
  });

  it("rejects an unknown kind and a negative seed", async () => {
    await assert.rejects(
      generateModel({ kind: "tiny-gpt", out: join(folder, "x.gguf") }),
      ModelGenerationError,
    );
    await assert.rejects(
      generateModel({ kind: "tiny-llama", out: join(folder, "x.gguf"), seed: -1 }),
      ModelGenerationError,
    );
  });
});

describe("ensureGeneratedModel", () => {
  it("generates once into <cacheDir>/<kind>-seed<seed>.gguf and shares concurrent calls", async () => {
    // prepare
    const cacheDir = join(folder, "cache");

    // act
    const [first, second] = await Promise.all([
      ensureGeneratedModel("tiny-llama", { cacheDir, seed: 5 }),
      ensureGeneratedModel("tiny-llama", { cacheDir, seed: 5 }),
    ]);
    const modified = (await stat(first)).mtimeMs;
    const third = await ensureGeneratedModel("tiny-llama", { cacheDir, seed: 5 });

    // assert
    assert.equal(first, join(cacheDir, "tiny-llama-seed5.gguf"));
    assert.equal(second, first);
    assert.equal(third, first);
    assert.equal((await stat(third)).mtimeMs, modified);
    assert.deepEqual(await readdir(cacheDir), ["tiny-llama-seed5.gguf"]);
  });

  it("regenerates a cached file written by another generator version", async () => {
    // prepare: a file in the cache that is not from this generator
    const cacheDir = join(folder, "stale");
    await mkdir(cacheDir, { recursive: true });
    const path = join(cacheDir, "tiny-llama-seed42.gguf");
    await writeFile(path, "GGUF stale bytes");

    // act
    const result = await ensureGeneratedModel("tiny-llama", { cacheDir });

    // assert
    assert.equal(result, path);
    assert.equal(await readGeneratorVersion(path), MODEL_GENERATOR_VERSION);
  });

  it("defaults to the repository's .cache/models folder", () => {
    assert.match(defaultModelCacheDir(), /[/\\]\.cache[/\\]models$/);
  });
});
