/** The summary `decisions classify` prints when every item has its outcome. */
import type { ClassifySummary } from "../../../operations/classify/index.js";

/**
 * What a run did, in lines: items classified by status with the rate, what was skipped or grouped,
 * the ids the input repeats (the first 20), and where the outcomes are.
 */
export function describeSummary(
  summary: ClassifySummary,
  policy: string,
  out: string,
  seconds: number,
): string {
  const written = Object.values(summary.written).reduce((sum, count) => sum + (count ?? 0), 0);
  const byStatus = Object.entries(summary.written)
    .map(([status, count]) => `${status} ${count}`)
    .join(", ");
  return [
    `classified ${written} item(s) with policy ${policy} in ${seconds.toFixed(1)} s (${(written / Math.max(seconds, 1e-3)).toFixed(1)} items/s)${byStatus ? `: ${byStatus}` : ""}`,
    `${summary.total} item(s) in the input; ${summary.skipped} already in the results; ${summary.groups} shared-state group(s), ${summary.requests} engine call(s) this run`,
    ...(summary.repeated.length > 0
      ? [
          `${summary.repeated.length} line(s) repeat an id of the input (the first line's outcome stands, the repeats were not decided): ${summary.repeated.slice(0, 20).join(", ")}${summary.repeated.length > 20 ? ", …" : ""}`,
        ]
      : []),
    `outcomes: ${out}`,
    "",
  ].join("\n");
}
