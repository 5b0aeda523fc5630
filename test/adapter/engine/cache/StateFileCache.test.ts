import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { StateFileCache } from "../../../../adapter/engine/cache/StateFileCache.js";

const writer = (bytes: number) => async (path: string) => {
  await writeFile(path, Buffer.alloc(bytes));
  return bytes;
};

describe("StateFileCache", () => {
  it("keys a token prefix by its exact tokens", () => {
    assert.equal(StateFileCache.keyOf([1, 2, 3]), StateFileCache.keyOf([1, 2, 3]));
    assert.notEqual(StateFileCache.keyOf([1, 2, 3]), StateFileCache.keyOf([1, 2, 4]));
    assert.notEqual(StateFileCache.keyOf([1, 2]), StateFileCache.keyOf([1, 2, 0]));
  });

  it("evicts the least recently used files to stay within its bound", async () => {
    const cache = new StateFileCache({ maxBytes: 250, parent: tmpdir() });
    try {
      await cache.store("a", 10, writer(100));
      await cache.store("b", 10, writer(100));
      assert.ok(cache.get("a"), "a is used, so b is now the oldest");
      await cache.store("c", 10, writer(100));
      assert.equal(cache.size, 2);
      assert.equal(cache.bytes, 200);
      assert.ok(cache.get("a"));
      assert.equal(cache.get("b"), undefined);
      assert.ok(cache.get("c"));
    } finally {
      await cache.dispose();
    }
  });

  it("does not keep a state larger than the whole bound, nor anything when disabled", async () => {
    const small = new StateFileCache({ maxBytes: 50, parent: tmpdir() });
    const off = new StateFileCache({ maxBytes: 0, parent: tmpdir() });
    try {
      await small.store("big", 10, writer(100));
      assert.equal(small.size, 0);
      let saved = false;
      await off.store("x", 10, async () => {
        saved = true;
        return 1;
      });
      assert.equal(saved, false);
    } finally {
      await small.dispose();
      await off.dispose();
    }
  });

  it("removes its files on clear and its folder on dispose", async () => {
    const parent = tmpdir();
    const cache = new StateFileCache({ maxBytes: 1000, parent });
    await cache.store("a", 1, writer(10));
    await cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.bytes, 0);
    const before = (await readdir(parent)).filter((name) => name.startsWith("decisions-state-")).length;
    await cache.dispose();
    const after = (await readdir(parent)).filter((name) => name.startsWith("decisions-state-")).length;
    assert.equal(after, before - 1);
  });
  it("makes no folder when disabled, and none before the first save", async () => {
    const parent = await mkdtemp(join(tmpdir(), "state-cache-parent-"));
    try {
      const off = new StateFileCache({ maxBytes: 0, parent });
      const on = new StateFileCache({ maxBytes: 1000, parent });
      assert.deepEqual(await readdir(parent), []);
      await on.store("a", 1, writer(10));
      assert.equal((await readdir(parent)).length, 1);
      await off.dispose();
      await on.dispose();
      assert.deepEqual(await readdir(parent), []);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it("counts a failed save and keeps its error, never throwing it", async () => {
    const cache = new StateFileCache({ maxBytes: 1000, parent: tmpdir() });
    try {
      const failure = new Error("ENOSPC: no space left on device");
      await cache.store("a", 1, async (path) => {
        await writeFile(path, "partial");
        throw failure;
      });
      assert.equal(cache.size, 0);
      assert.equal(cache.bytes, 0);
      assert.equal(cache.saveFailures, 1);
      assert.equal(cache.lastError, failure);
      await cache.store("b", 1, writer(10));
      assert.equal(cache.size, 1, "the cache keeps working after a failure");
    } finally {
      await cache.dispose();
    }
  });
});
