import { statfs } from "node:fs/promises";
import { totalmem } from "node:os";
import { dirname, resolve } from "node:path";
import type { CacheSpace } from "../types.js";

/**
 * Measures the room a default cache bound is sized from: the free disk of the file system that
 * holds `folder` (the state files' parent folder), and this process's available and total memory.
 *
 * The state files' private folder is made at the first save, and its parent need not exist yet
 * either; the nearest existing ancestor is measured instead (the file system the folder will be
 * made on). Memory is `process.availableMemory()` and the lower of `os.totalmem()` and
 * `process.constrainedMemory()`, so a container's memory limit counts where `os.freemem()` would
 * report the host's.
 *
 * @param folder the folder in which the state files' folder is (or will be) made.
 * @throws the `statfs` error of the file system root, when not even that can be measured.
 */
export async function measureCacheSpace(folder: string): Promise<CacheSpace> {
  const disk = await freeDiskNear(resolve(folder));
  return {
    folder: disk.folder,
    free_disk_bytes: disk.bytes,
    available_memory_bytes: process.availableMemory(),
    total_memory_bytes: totalMemory(),
  };
}

async function freeDiskNear(folder: string): Promise<{ folder: string; bytes: number }> {
  let candidate = folder;
  for (;;) {
    try {
      const stats = await statfs(candidate);
      return { folder: candidate, bytes: stats.bavail * stats.bsize };
    } catch (error) {
      // Missing, not a folder, or not searchable: the parent is the best measure of where the
      // folder would be made (a save there fails on its own, and is counted).
      const parent = dirname(candidate);
      if (parent === candidate) throw error;
      candidate = parent;
    }
  }
}

function totalMemory(): number {
  const machine = totalmem();
  // 0, or about 2^64, when the process has no memory limit.
  const limit = process.constrainedMemory();
  return limit > 0 && limit < machine ? limit : machine;
}
