import { defaultTextOf, SERVER_SETTING_ENTRIES } from "../../../contract/index.js";
import type { CacheSpace } from "../types.js";

const MIB = 1024 * 1024;

/**
 * The largest default: llama-server's `--cache-ram` default (8 GiB of past prompts kept in RAM),
 * the reference the adapter is measured against. About 45 states of 1,600 words on the Qwen3-0.6B
 * shape (~180 MB each).
 */
export const DEFAULT_CACHE_CAP_BYTES = 8 * 1024 * MIB;

/**
 * The smallest default where the machine has room for it: one 400-token state on the 0.6B shape
 * (~46 MB) or a few short ones, so that reuse across requests never silently stops on a small
 * container.
 */
export const DEFAULT_CACHE_FLOOR_BYTES = 64 * MIB;

/**
 * Share of the free disk (of the file system holding the state files) the default may take. The
 * state files are the only large thing the adapter writes; half leaves the rest to logs and other
 * writers, and a disk that fills anyway only costs counted save failures.
 */
const DISK_SHARE = 1 / 2;

/**
 * Share of the available memory the default may take. The one bound limits both the state files
 * and, separately, the in-memory snapshots of a hybrid model, and in the image the state files sit
 * on a tmpfs `/tmp` (memory): the cache may hold twice the bound in memory. A quarter keeps that
 * to half of what was available once the model and its context were allocated, leaving the rest
 * to the page cache of the memory-mapped weights (which `available` counts as free), request
 * buffers and the OS.
 */
const MEMORY_SHARE = 1 / 4;

/** Shares the floor may take at most: never more than half of the disk or of the memory. */
const FLOOR_SHARE = 1 / 2;

/**
 * How the default is documented (`decisions serve --help`, docs/configuration.md): the default
 * text of `SEMIF_CACHE_MAX_BYTES` in the settings kit (`contract/settings/serverSettings.ts`),
 * which says to change it together with {@link defaultCacheBytes}.
 */
export const DEFAULT_CACHE_RULE: string = defaultTextOf(SERVER_SETTING_ENTRIES.cacheMaxBytes);

/**
 * The default bound of the cross-request cache, sized from the machine:
 * `max(min(8 GiB, disk / 2, memory / 4), min(64 MiB, disk / 2, memory / 2))`, rounded down to a
 * whole MiB, where `disk` is the free disk of the state files' file system and `memory` the
 * available memory (at most the total). A machine with no room gets 0: no state files are kept.
 *
 * Pure: the machine is measured by the caller (`cacheBoundFor`), so every case can be tested.
 *
 * @param space the measured room (its `folder` is not used).
 * @returns the bound in bytes, a multiple of 1 MiB.
 * @example
 * defaultCacheBytes({ free_disk_bytes: 100e9, available_memory_bytes: 16e9, total_memory_bytes: 32e9 });
 * // 3814 MiB: a quarter of the available memory
 */
export function defaultCacheBytes(space: Omit<CacheSpace, "folder">): number {
  const disk = Math.max(0, space.free_disk_bytes);
  // A container's figures can disagree for a moment; never count more than the machine has.
  const memory = Math.max(0, Math.min(space.available_memory_bytes, space.total_memory_bytes));
  const sized = Math.min(DEFAULT_CACHE_CAP_BYTES, disk * DISK_SHARE, memory * MEMORY_SHARE);
  const floor = Math.min(DEFAULT_CACHE_FLOOR_BYTES, disk * FLOOR_SHARE, memory * FLOOR_SHARE);
  return Math.floor(Math.max(sized, floor) / MIB) * MIB;
}
