import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderCoverageErrorCurve } from "../charts/renderCoverageErrorCurve.js";
import { renderReliabilityDiagram } from "../charts/renderReliabilityDiagram.js";
import { formatJevBenchReport, JEVBENCH_CHART_FILES, type JevBenchRunInfo } from "./formatJevBenchReport.js";
import type { JevBenchSummary } from "./summarizeJevBench.js";
import type { JevBenchRecord } from "./types.js";

/** Paths {@link writeJevBenchReport} wrote. */
export interface JevBenchReportFiles {
  json: string;
  markdown: string;
  reliability: string;
  coverage: string;
}

/**
 * Writes a JevBench run into a folder (made if missing): `jevbench.json` (run info, summary and
 * one record per case), `jevbench.md` ({@link formatJevBenchReport}) and the two charts it links.
 */
export async function writeJevBenchReport(
  outDir: string,
  run: JevBenchRunInfo,
  summary: JevBenchSummary,
  records: readonly JevBenchRecord[],
): Promise<JevBenchReportFiles> {
  await mkdir(outDir, { recursive: true });
  const files: JevBenchReportFiles = {
    json: join(outDir, "jevbench.json"),
    markdown: join(outDir, "jevbench.md"),
    reliability: join(outDir, JEVBENCH_CHART_FILES.reliability),
    coverage: join(outDir, JEVBENCH_CHART_FILES.coverage),
  };
  await writeFile(files.json, `${JSON.stringify({ run, summary, records }, null, 2)}\n`);
  await writeFile(files.markdown, formatJevBenchReport(summary, run));
  await writeFile(
    files.reliability,
    renderReliabilityDiagram(
      [{ name: run.model, colour: "#1f77b4", bins: summary.ece.bins }],
      "JevBench: reliability (10 bins, top label)",
    ),
  );
  await writeFile(
    files.coverage,
    renderCoverageErrorCurve(summary.coverage_curve, {
      title: "JevBench: answers at or above a confidence threshold",
    }),
  );
  return files;
}
