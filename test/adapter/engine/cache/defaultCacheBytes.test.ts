import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  DEFAULT_CACHE_CAP_BYTES,
  DEFAULT_CACHE_FLOOR_BYTES,
  defaultCacheBytes,
} from "../../../../adapter/engine/cache/defaultCacheBytes.js";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** The machine as measured: free disk, available and total memory, in bytes. */
function machine(disk: number, available: number, total = Math.max(available, 64 * GIB)) {
  return { free_disk_bytes: disk, available_memory_bytes: available, total_memory_bytes: total };
}

describe("defaultCacheBytes", () => {
  it("stops at llama-server's 8 GiB on a machine with plenty of disk and memory", () => {
    assert.equal(defaultCacheBytes(machine(2000 * GIB, 512 * GIB)), DEFAULT_CACHE_CAP_BYTES);
    assert.equal(DEFAULT_CACHE_CAP_BYTES, 8 * GIB);
  });

  it("takes a quarter of the available memory when memory is the limit", () => {
    assert.equal(defaultCacheBytes(machine(500 * GIB, 16 * GIB)), 4 * GIB);
  });

  it("takes half of the free disk when the disk is the limit", () => {
    assert.equal(defaultCacheBytes(machine(3 * GIB, 64 * GIB)), 1.5 * GIB);
  });

  it("rounds down to a whole MiB", () => {
    // A quarter of 16e9 bytes is 3814.69... MiB.
    const bytes = defaultCacheBytes(machine(1e12, 16e9));
    assert.equal(bytes, 3814 * MIB);
  });

  it("raises a small container's share to 64 MiB while that is at most half its memory", () => {
    // A quarter of 200 MiB is 50 MiB; half of it holds the 64 MiB floor.
    assert.equal(defaultCacheBytes(machine(100 * GIB, 200 * MIB)), DEFAULT_CACHE_FLOOR_BYTES);
    // Half of 100 MiB is less than the floor: the half is all it gets.
    assert.equal(defaultCacheBytes(machine(100 * GIB, 100 * MIB)), 50 * MIB);
  });

  it("never takes more than half of a small disk, floor or not", () => {
    assert.equal(defaultCacheBytes(machine(100 * MIB, 64 * GIB)), 50 * MIB);
  });

  it("keeps nothing on a machine with no room", () => {
    assert.equal(defaultCacheBytes(machine(0, 64 * GIB)), 0);
    assert.equal(defaultCacheBytes(machine(500 * GIB, 0)), 0);
    assert.equal(defaultCacheBytes(machine(MIB, 64 * GIB)), 0, "half of 1 MiB rounds down to 0");
  });

  it("counts no more available memory than the machine (or container) has in total", () => {
    assert.equal(defaultCacheBytes(machine(500 * GIB, 16 * GIB, 8 * GIB)), 2 * GIB);
  });

  it("is a whole number of MiB, at most the cap and at most half of the disk and of the memory", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 4096 * 1024 }).map((mib) => mib * MIB + 12_345),
        fc.nat({ max: 1024 * 1024 }).map((mib) => mib * MIB + 678),
        fc.nat({ max: 1024 * 1024 }).map((mib) => mib * MIB),
        (disk, available, total) => {
          const bytes = defaultCacheBytes(machine(disk, available, total));
          assert.equal(bytes % MIB, 0);
          assert.ok(bytes >= 0 && bytes <= DEFAULT_CACHE_CAP_BYTES);
          assert.ok(bytes <= disk / 2, `${bytes} within half of ${disk}`);
          assert.ok(bytes <= Math.min(available, total) / 2, `${bytes} within half of the memory`);
        },
      ),
    );
  });
});
