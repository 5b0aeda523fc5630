import assert from "node:assert/strict";
import { mkdtemp, rm, statfs, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { measureCacheSpace } from "../../../../adapter/engine/cache/measureCacheSpace.js";

describe("measureCacheSpace", () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "cache-space-"));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("measures the file system of a folder that exists", async () => {
    // act
    const space = await measureCacheSpace(folder);

    // assert
    const stats = await statfs(folder);
    assert.equal(space.folder, folder);
    // Other processes write meanwhile: the figure is close to (within 256 MiB of) a second look.
    assert.ok(Math.abs(space.free_disk_bytes - stats.bavail * stats.bsize) < 256 * 1024 * 1024);
    assert.ok(space.free_disk_bytes > 0);
  });

  it("measures the nearest existing parent of a folder not made yet", async () => {
    const space = await measureCacheSpace(join(folder, "not", "made", "yet"));
    assert.equal(space.folder, folder);
  });

  it("measures the folder holding a file that stands where the folder should be", async () => {
    // prepare: a regular file, so nothing below it can exist (ENOTDIR)
    const file = join(folder, "a-file");
    await writeFile(file, "");

    // act
    const space = await measureCacheSpace(join(file, "cache"));

    // assert: statfs works on the file itself, which is on the same file system
    assert.equal(space.folder, file);
  });

  it("reports this process's available memory, at most the total", async () => {
    const space = await measureCacheSpace(folder);
    assert.ok(space.available_memory_bytes > 0);
    assert.ok(space.total_memory_bytes > 0);
    assert.ok(
      space.total_memory_bytes <= Number.MAX_SAFE_INTEGER,
      "a container without a limit reads as the machine",
    );
  });
});
