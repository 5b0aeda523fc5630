import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import type { LanesBenchReport } from "./types.js";

/** Writes `lanes-<timestamp>.json` unless `outDir` is null. */
export async function writeLanesReport(
  report: LanesBenchReport,
  outDir: string | null | undefined,
  startedAt: Date,
): Promise<{ report: LanesBenchReport; jsonPath?: string }> {
  if (outDir === null) return { report };
  const folder = outDir ?? join(packageRoot(), "lab", "bench", "results");
  await mkdir(folder, { recursive: true });
  const stamp = startedAt.toISOString().replaceAll(":", "-").replaceAll(".", "-");
  const jsonPath = join(folder, `lanes-${stamp}.json`);
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  return { report, jsonPath };
}
