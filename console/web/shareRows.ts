/**
 * Which rows a list of options draws (`shareList.ts`): all of them up to a bound, else the largest
 * and one "others" row. No Preact here, so that the unit tests import it alone.
 */

/** Options listed one per row at most; more are shown as the largest ones and one "others" row. */
export const SHARE_LIST_ROWS = 15;

/** One row: an option (or "others"), its share on each side (0–1). */
export interface ShareRow {
  name: string;
  a: number;
  b: number;
  /** The options an "others" row sums. */
  others?: string[];
}

/**
 * The rows to draw: every option in its order when they are at most `bound`; else the `bound − 1`
 * largest (by the larger of their two shares) in their order, and an "others" row summing the rest.
 */
export function shareRows(rows: readonly ShareRow[], bound = SHARE_LIST_ROWS): ShareRow[] {
  if (rows.length <= bound) return [...rows];
  const ranked = [...rows].sort((x, y) => Math.max(y.a, y.b) - Math.max(x.a, x.b));
  const kept = new Set(ranked.slice(0, bound - 1).map((row) => row.name));
  const rest = rows.filter((row) => !kept.has(row.name));
  return [
    ...rows.filter((row) => kept.has(row.name)),
    {
      name: `others (${rest.length} options)`,
      a: rest.reduce((sum, row) => sum + row.a, 0),
      b: rest.reduce((sum, row) => sum + row.b, 0),
      others: rest.map((row) => row.name),
    },
  ];
}
