import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BacklogBenchReport } from "./types.js";

/** Writes `backlog-<timestamp>.json` into `outDir` (default `lab/bench/results` under the working folder). */
export async function writeBacklogReport(
  report: BacklogBenchReport,
  outDir: string | undefined,
  startedAt: Date,
): Promise<{ report: BacklogBenchReport; jsonPath: string }> {
  const folder = outDir ?? join(process.cwd(), "lab", "bench", "results");
  await mkdir(folder, { recursive: true });
  const jsonPath = join(folder, `backlog-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  return { report, jsonPath };
}
