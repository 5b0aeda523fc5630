import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderCoverageErrorCurve } from "../charts/renderCoverageErrorCurve.js";
import { renderReliabilityDiagram } from "../charts/renderReliabilityDiagram.js";
import type { CalibrationReport } from "./calibratePolicy.js";
import { calibrationChartFiles, formatCalibrationReport } from "./formatCalibrationReport.js";

/**
 * Writes a calibration report into a folder (made if missing): `calibration.json` (the report),
 * `calibration.md` (see {@link formatCalibrationReport}) and per calibrated question its
 * reliability diagram (before and after, held out) and coverage/error curve (after, held out).
 *
 * @returns the paths written, the Markdown first
 */
export async function writeCalibrationReport(
  outDir: string,
  report: CalibrationReport,
  written?: { file: string; version: string },
): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const markdown = join(outDir, "calibration.md");
  const json = join(outDir, "calibration.json");
  await writeFile(markdown, formatCalibrationReport(report, written));
  await writeFile(json, `${JSON.stringify({ ...report, written }, null, 2)}\n`);
  const paths = [markdown, json];
  for (const question of report.questions) {
    if (question.held_out === undefined || question.curve === undefined) continue;
    const files = calibrationChartFiles(question.id);
    const reliability = join(outDir, files.reliability);
    const coverage = join(outDir, files.coverage);
    await writeFile(
      reliability,
      renderReliabilityDiagram(
        [
          {
            name: `before (T = ${question.current.temperature})`,
            colour: "#d62728",
            bins: question.held_out.before.bins,
          },
          {
            name: `after (T = ${question.fitted?.temperature})`,
            colour: "#1f77b4",
            bins: question.held_out.after.bins,
          },
        ],
        `${report.policy} · ${question.id}: reliability, held out`,
      ),
    );
    await writeFile(
      coverage,
      renderCoverageErrorCurve(question.curve, {
        title: `${report.policy} · ${question.id}: automated decisions, held out`,
        errorBudget: report.error_budget,
        threshold: question.threshold?.threshold ?? undefined,
      }),
    );
    paths.push(reliability, coverage);
  }
  return paths;
}
