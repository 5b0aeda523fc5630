import type { BudgetSimulation } from "./simulateReviewBudget.js";

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "—");

/**
 * A budget simulation as Markdown: what was replayed, the truth every label gives, and one row
 * per strategy (labels spent, the automated error's interval width, coverage, bias and RMSE, and
 * the fitted threshold's distance from the one every label gives).
 */
export function formatBudgetSimulation(simulation: BudgetSimulation): string {
  const strata = simulation.strata_rates
    .map(
      (stratum) =>
        `${stratum.below === undefined ? "rest" : `< ${stratum.below}`}: ${fixed(stratum.rate, 4)}`,
    )
    .join(", ");
  const lines = [
    `## Budget of ${simulation.budget} labels, question ${simulation.question}`,
    "",
    `Replayed ${simulation.decided} decided items and ${simulation.fallbacks} fallbacks, ${simulation.replications} draws. ` +
      `Every label gives: automated error ${fixed(simulation.true_error, 4)}, threshold ${simulation.reference_threshold ?? "none"}. ` +
      `Uniform audit rate ${fixed(simulation.audit_rate, 4)}; strata ${strata}` +
      (simulation.capped > 0 ? `; ${simulation.capped} audit items capped at the export's own rate.` : "."),
    "",
    "| strategy | audit labels | fallback labels | 95 % interval width | coverage | error bias | error RMSE | threshold distance | no threshold |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...simulation.results.map(
      (result) =>
        `| ${result.strategy} | ${fixed(result.audit_labels, 1)} | ${fixed(result.fallback_labels, 1)} | ${fixed(result.interval_width, 4)} | ${fixed(result.interval_coverage, 3)} | ${fixed(result.error_bias, 4)} | ${fixed(result.error_rmse, 4)} | ${fixed(result.threshold_distance, 4)} | ${result.threshold_missing} of ${simulation.replications} |`,
    ),
    "",
  ];
  return `${lines.join("\n")}\n`;
}
