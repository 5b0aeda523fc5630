import type { CacheBound } from "../types.js";
import { defaultCacheBytes } from "./defaultCacheBytes.js";
import { measureCacheSpace } from "./measureCacheSpace.js";

/**
 * The bound of the cross-request cache: the explicit value when one is given (0 included: keep
 * none), else {@link defaultCacheBytes} of the room measured now by {@link measureCacheSpace}
 * around `folder`. The machine is not measured when the value is explicit.
 *
 * @param explicit the caller's `cacheMaxBytes`, or undefined for the machine's default.
 * @param folder the folder in which the state files' folder is (or will be) made.
 * @throws the `statfs` error of the file system root, when not even that can be measured.
 * @example
 * await cacheBoundFor(undefined, tmpdir()); // { bytes: 4294967296, source: "machine", sized_from: {…} }
 * await cacheBoundFor(0, tmpdir()); // { bytes: 0, source: "explicit", sized_from: null }
 */
export async function cacheBoundFor(explicit: number | undefined, folder: string): Promise<CacheBound> {
  if (explicit !== undefined) return { bytes: explicit, source: "explicit", sized_from: null };
  const space = await measureCacheSpace(folder);
  return { bytes: defaultCacheBytes(space), source: "machine", sized_from: space };
}
