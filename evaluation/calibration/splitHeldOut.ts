import { createHash } from "node:crypto";

/** Options of {@link splitHeldOut}. */
export interface HeldOutOptions {
  /** Share of items held out from fitting, for evaluation. Default 0.3. */
  fraction?: number;
  /** Seed of the split: another seed gives another split. Default 0. */
  seed?: number;
}

/**
 * Whether an item is held out: SHA-256 of `<seed>:<id>`, read as a number in [0, 1), is below the
 * fraction. Deterministic, independent of the order of the data, and stable as new items are
 * added (an item never changes sides), so a rerun on a grown export keeps its held-out set honest.
 */
export function isHeldOut(id: string, options: HeldOutOptions = {}): boolean {
  const digest = createHash("sha256")
    .update(`${options.seed ?? 0}:${id}`)
    .digest();
  return digest.readUIntBE(0, 6) / 2 ** 48 < (options.fraction ?? 0.3);
}

/**
 * Splits items into a fit set and a held-out set by {@link isHeldOut} on each item's id (all
 * questions of one item land on the same side).
 */
export function splitHeldOut<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  options: HeldOutOptions = {},
): { fit: T[]; heldOut: T[] } {
  const fit: T[] = [];
  const heldOut: T[] = [];
  for (const item of items) (isHeldOut(idOf(item), options) ? heldOut : fit).push(item);
  return { fit, heldOut };
}
