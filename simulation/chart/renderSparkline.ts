const BLOCKS = "▁▂▃▄▅▆▇█";

/**
 * A text sparkline of `values` in `width` characters (each the largest value of its slice), scaled
 * from 0 to the largest value; empty input gives an empty string.
 *
 * @example
 * renderSparkline([0, 1, 2, 3], 4); // "▁▃▆█"
 */
export function renderSparkline(values: readonly number[], width = 60): string {
  if (values.length === 0) return "";
  const max = Math.max(...values);
  const columns = Math.min(width, values.length);
  let line = "";
  for (let column = 0; column < columns; column++) {
    const from = Math.floor((column * values.length) / columns);
    const to = Math.max(from + 1, Math.floor(((column + 1) * values.length) / columns));
    const slice = Math.max(...values.slice(from, to));
    const level = max <= 0 ? 0 : Math.round((slice / max) * (BLOCKS.length - 1));
    line += BLOCKS[level];
  }
  return line;
}
