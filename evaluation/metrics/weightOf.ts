/**
 * The weight of a forecast or graded decision: its `weight`, or 1 when it has none.
 * @throws RangeError for a weight that is not a positive finite number
 */
export function weightOf(item: { weight?: number }): number {
  const weight = item.weight ?? 1;
  if (!(Number.isFinite(weight) && weight > 0)) {
    throw new RangeError(`a weight must be a positive finite number, got ${weight}`);
  }
  return weight;
}
