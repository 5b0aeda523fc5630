/**
 * The bound of the cross-request cache on a loaded scorer: sized from the machine unless given,
 * and in either case logged once and reported with how it was chosen.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { defaultCacheBytes } from "../../../adapter/engine/cache/defaultCacheBytes.js";
import type { EngineLogger } from "../../../adapter/engine/EngineLogger.js";
import { Scorer } from "../../../adapter/engine/Scorer.js";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";

/** An engine logger that keeps every record. */
function recordingLogger(): EngineLogger & {
  records: { event: string; fields?: Record<string, unknown> }[];
} {
  const records: { event: string; fields?: Record<string, unknown> }[] = [];
  return { records, log: (_level, event, fields) => records.push({ event, fields }) };
}

describe("Scorer's cache bound", () => {
  let modelPath: string;
  let folder: string;
  before(async () => {
    modelPath = await ensureGeneratedModel("tiny-qwen3");
    folder = await mkdtemp(join(tmpdir(), "scorer-bound-"));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("is sized from the room where its state files go when cacheMaxBytes is not given", async () => {
    // prepare
    const logger = recordingLogger();

    // act
    await using scorer = await Scorer.load({ modelPath, threads: 2, cacheDir: folder, logger });

    // assert
    const stats = scorer.cacheStats();
    assert.equal(stats.max_bytes_source, "machine");
    assert.ok(stats.max_bytes_sized_from !== null);
    assert.equal(stats.max_bytes_sized_from.folder, folder);
    assert.equal(stats.max_bytes, defaultCacheBytes(stats.max_bytes_sized_from));
    const logged = logger.records.filter((record) => record.event === "cache_bound");
    assert.deepEqual(logged, [
      {
        event: "cache_bound",
        fields: { max_bytes: stats.max_bytes, source: "machine", sized_from: stats.max_bytes_sized_from },
      },
    ]);
  });

  it("is the explicit value when one is given, and says so", async () => {
    const logger = recordingLogger();

    await using scorer = await Scorer.load({
      modelPath,
      threads: 2,
      cacheDir: folder,
      cacheMaxBytes: 3 * 1024 * 1024,
      logger,
    });

    const stats = scorer.cacheStats();
    assert.equal(stats.max_bytes, 3 * 1024 * 1024);
    assert.equal(stats.max_bytes_source, "explicit");
    assert.equal(stats.max_bytes_sized_from, null);
    assert.deepEqual(
      logger.records.filter((record) => record.event === "cache_bound").map((record) => record.fields),
      [{ max_bytes: 3 * 1024 * 1024, source: "explicit", sized_from: null }],
    );
  });
});
