import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  formatJevBenchComparison,
  type JevBenchComparisonInfo,
  type JevBenchLayoutRun,
  jevBenchLayoutRow,
} from "./formatJevBenchComparison.js";

/** Paths {@link writeJevBenchComparison} wrote. */
export interface JevBenchComparisonFiles {
  json: string;
  markdown: string;
}

/**
 * Writes the side-by-side comparison of several layouts' runs into a folder (made if missing):
 * `comparison.json` (the run and one row of headline figures per layout, see
 * `jevBenchLayoutRow`) and `comparison.md` ({@link formatJevBenchComparison}). Each layout's
 * full report is written on its own, by `writeJevBenchReport`, where its `report` points.
 */
export async function writeJevBenchComparison(
  outDir: string,
  run: JevBenchComparisonInfo,
  runs: readonly JevBenchLayoutRun[],
): Promise<JevBenchComparisonFiles> {
  await mkdir(outDir, { recursive: true });
  const files = { json: join(outDir, "comparison.json"), markdown: join(outDir, "comparison.md") };
  const layouts = runs.map(jevBenchLayoutRow);
  await writeFile(files.json, `${JSON.stringify({ run, layouts }, null, 2)}\n`);
  await writeFile(files.markdown, formatJevBenchComparison(run, runs));
  return files;
}
