/**
 * The offsets of `count` cyclic rotations of `n` options, evenly spaced and starting with the given
 * order: ⌊j·n/count⌋ for j = 0 … count−1 (all n rotations when `count` is n).
 * @throws RangeError when `count` is not an integer from 1 to n.
 * @example cyclicRotations(4, 2) // [0, 2]
 */
export function cyclicRotations(n: number, count = n): number[] {
  if (!Number.isInteger(count) || count < 1 || count > n) {
    throw new RangeError(`rotations must be an integer from 1 to ${n}, got ${count}`);
  }
  return Array.from({ length: count }, (_, index) => Math.floor((index * n) / count));
}

/**
 * The list rotated left by `offset` places: item `offset` comes first.
 * @example rotate(["a", "b", "c"], 1) // ["b", "c", "a"]
 */
export function rotate<T>(items: readonly T[], offset: number): T[] {
  const shift = ((offset % items.length) + items.length) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
