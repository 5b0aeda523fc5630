import { formatPromptVersions } from "../layoutChoices.js";
import type { ForecastMetrics } from "../metrics/forecastMetrics.js";
import type { CalibrationReport, QuestionCalibrationReport } from "./calibratePolicy.js";
import type { LabelledScoring } from "./scoreLabelledDecisions.js";

/** Chart file names of one question's report, relative to the report's folder. */
export function calibrationChartFiles(question: string): { reliability: string; coverage: string } {
  return { reliability: `${question}-reliability.svg`, coverage: `${question}-coverage.svg` };
}

/**
 * The calibration report as Markdown: where the distributions come from (recorded, or scored
 * again on a model in a named layout, with the prompt versions answered), per question the
 * accuracy of automated decisions from audit items (with its interval), the fitted temperature, the held-out metrics
 * before and after, the chosen threshold with its coverage, error and error upper bound on both
 * splits, a warning when the held-out split does not confirm the budget, and links to the charts
 * (files named by {@link calibrationChartFiles}).
 */
export function formatCalibrationReport(
  report: CalibrationReport,
  written?: { file: string; version: string },
): string {
  const lines = [
    `# Calibration of policy ${report.policy} (version ${report.policy_version})`,
    "",
    `Error budget ${report.error_budget} for automated decisions (Wilson upper bound, z = ${report.z}); ` +
      `held out ${Math.round(report.held_out.fraction * 100)} % of the items (seed ${report.held_out.seed}). ` +
      "Metrics on the held-out split; argmax ties go to the label offered first, as the policy decides. " +
      "Each label is weighted by the inverse of its probability of reaching a person: 1 for a fallback, 1/audit_rate for an audit item.",
    "",
    ...scoringSection(report.scoring),
  ];
  if (written !== undefined) lines.push(`Written to ${written.file} as version ${written.version}.`, "");
  for (const question of report.questions) lines.push(...questionSection(question, report.z));
  return `${lines.join("\n")}\n`;
}

function scoringSection(scoring: LabelledScoring | undefined): string[] {
  if (scoring === undefined) {
    return [
      "Distributions as recorded when the items were decided, in the layout the policy asked for then.",
      "",
    ];
  }
  const lines = [
    `Scored again in-process on ${scoring.model} (${scoring.model_file}), every question asked in layout ` +
      `${scoring.layout}: ${scoring.lines - scoring.failed.length}/${scoring.lines} labelled lines answered.`,
    "",
    "| question | prompt_version answered |",
    "|---|---|",
    ...Object.entries(scoring.prompt_versions).map(
      ([id, counts]) => `| ${id} | ${formatPromptVersions(counts)} |`,
    ),
    "",
  ];
  if (scoring.failed.length > 0) {
    lines.push(
      "Left out (no usable answer):",
      "",
      ...scoring.failed
        .slice(0, 20)
        .map((failure) => `- line ${failure.line} (${failure.id}): ${failure.error}`),
      ...(scoring.failed.length > 20 ? [`- … and ${scoring.failed.length - 20} more`] : []),
      "",
    );
  }
  return lines;
}

function questionSection(question: QuestionCalibrationReport, z: number): string[] {
  const audits =
    question.audit_n > 0 ? ` (${question.audit_n} of them audit items, weighted 1/audit_rate)` : "";
  const head = `## ${question.id} (${question.type}): ${question.labelled} labelled${audits}, ${question.fit_n} to fit, ${question.held_out_n} held out`;
  const accuracy = automatedAccuracyLines(question);
  if (question.skipped !== undefined || question.held_out === undefined || question.fitted === undefined) {
    return [head, "", ...accuracy, `Not calibrated: ${question.skipped ?? "no fit"}.`, ""];
  }
  const { before, after } = question.held_out;
  const rows: [string, ForecastMetrics][] = [
    [`before (T = ${question.current.temperature})`, before],
    [`after (T = ${question.fitted.temperature})`, after],
  ];
  if (question.contextual !== undefined) {
    rows.push([
      `contextual (T = ${round(question.contextual.temperature)}, per-label bias)`,
      question.contextual.held_out,
    ]);
  }
  const choice = question.threshold;
  const heldOut = question.threshold_held_out;
  const charts = calibrationChartFiles(question.id);
  const lines = [
    head,
    "",
    ...accuracy,
    "| held out | accuracy | Brier | NLL | ECE (10 bins) |",
    "|---|---|---|---|---|",
    ...rows.map(
      ([name, m]) =>
        `| ${name} | ${round(m.accuracy)} | ${round(m.brier)} | ${round(m.nll)} | ${round(m.ece)} |`,
    ),
    "",
    `Fitted temperature ${question.fitted.temperature}${question.fitted.at_bound ? " (at the allowed bound)" : ""}; ` +
      `NLL on the fit split ${round(question.fitted.nll_fit_before)} → ${round(question.fitted.nll_fit_after)}.`,
    "",
  ];
  if (
    choice === undefined ||
    !choice.met ||
    choice.threshold === null ||
    heldOut === undefined ||
    heldOut === null
  ) {
    lines.push(
      `No threshold keeps the error of automated decisions within ${choice?.error_budget} on the fit split; the threshold is left as it is (${question.current.threshold}).`,
    );
  } else {
    lines.push(
      `| threshold | split | automated | coverage | error rate | error upper bound (Wilson, z = ${z}) |`,
      "|---|---|---|---|---|---|",
      `| ${choice.threshold} (chosen) | fit | ${choice.automated} | ${round(choice.coverage)} | ${round(choice.error_rate)} | ${round(choice.error_upper_bound)} |`,
      `| ${choice.threshold} (chosen) | held out | ${heldOut.automated} | ${round(heldOut.coverage)} | ${round(heldOut.error_rate)} | ${round(heldOut.error_upper_bound)} |`,
    );
    const current = question.current_held_out;
    if (current !== undefined) {
      lines.push(
        `| ${current.threshold} (current, T = ${question.current.temperature}) | held out | ${current.automated} | ${round(current.coverage)} | ${round(current.error_rate)} | ${round(current.error_upper_bound)} |`,
      );
    }
    const judged = question.held_out_budget;
    if (judged !== undefined) {
      const mark = judged.verdict === "confirmed" ? "Held out" : `**Warning** (${judged.verdict})`;
      lines.push("", `${mark}: ${judged.message}.`);
    }
  }
  lines.push(
    "",
    `Charts: [reliability diagram](${charts.reliability}), [coverage/error curve](${charts.coverage}).`,
    "",
  );
  return lines;
}

/**
 * The accuracy of automated decisions from the audit items, or why it cannot be told: labels of
 * fallbacks alone describe the items the model was unsure of, not the ones it decided.
 */
function automatedAccuracyLines(question: QuestionCalibrationReport): string[] {
  const estimate = question.automated_accuracy;
  if (estimate === undefined) {
    return [
      "Accuracy of automated decisions: unknown — no audit items among the labels (set the policy's audit_rate); labels of fallbacks describe only the items the model was unsure of.",
      "",
    ];
  }
  const effective =
    Math.abs(estimate.effective_n - estimate.audited) > 1e-9
      ? `, effective n ${estimate.effective_n.toFixed(1)}`
      : "";
  return [
    `Accuracy of automated decisions (from ${estimate.audited} audit items, ${estimate.agreed} confirmed${effective}): ` +
      `${round(estimate.accuracy)}, ${Math.round(estimate.confidence * 100)} % Wilson interval ` +
      `[${round(estimate.interval.lower)}, ${round(estimate.interval.upper)}].`,
    "",
  ];
}

function round(value: number): string {
  return Number.isFinite(value) ? value.toFixed(4) : "n/a";
}
