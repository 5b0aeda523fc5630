import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cacheBoundFor } from "../../../../adapter/engine/cache/cacheBoundFor.js";
import { defaultCacheBytes } from "../../../../adapter/engine/cache/defaultCacheBytes.js";

describe("cacheBoundFor", () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "cache-bound-"));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("keeps an explicit value, 0 included, without sizing it from the machine", async () => {
    assert.deepEqual(await cacheBoundFor(0, folder), { bytes: 0, source: "explicit", sized_from: null });
    assert.deepEqual(await cacheBoundFor(12_345, folder), {
      bytes: 12_345,
      source: "explicit",
      sized_from: null,
    });
  });

  it("sizes an unset bound from the room measured where the state files go", async () => {
    // act
    const bound = await cacheBoundFor(undefined, join(folder, "state-files"));

    // assert
    assert.equal(bound.source, "machine");
    assert.ok(bound.sized_from !== null);
    assert.equal(bound.sized_from.folder, folder, "the nearest existing parent was measured");
    assert.equal(bound.bytes, defaultCacheBytes(bound.sized_from));
  });
});
