import assert from "node:assert/strict";
import { readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { describe, it } from "node:test";
import { StateFileCache } from "../../../adapter/engine/StateFileCache.js";

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
    const cache = await StateFileCache.create(250, tmpdir());
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
    const small = await StateFileCache.create(50, tmpdir());
    const off = await StateFileCache.create(0, tmpdir());
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
    const cache = await StateFileCache.create(1000, parent);
    await cache.store("a", 1, writer(10));
    await cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.bytes, 0);
    const before = (await readdir(parent)).filter((name) => name.startsWith("decisions-state-")).length;
    await cache.dispose();
    const after = (await readdir(parent)).filter((name) => name.startsWith("decisions-state-")).length;
    assert.equal(after, before - 1);
  });
});
