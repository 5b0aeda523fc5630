/** `decisions calibrate --simulate-budget`: replays the export under a review budget. */

import type { Policy } from "../../../core/policy/Policy.js";
import { formatBudgetSimulation } from "../../../evaluation/budget/formatBudgetSimulation.js";
import { simulateReviewBudget } from "../../../evaluation/budget/simulateReviewBudget.js";
import { collectForecasts } from "../../../evaluation/calibration/collectForecasts.js";
import type { CliOutput } from "../../types.js";
import { budgetSimulationOptions, type CalibratePlan } from "./planCalibrate.js";
import { readLabelledLines } from "./readLabelledLines.js";

/**
 * Simulates the plan's budget for each question of the export that has audit items, printing
 * each simulation on stdout and naming the questions without audit items on stderr.
 *
 * @returns the exit code: 0 when at least one question was simulated, else 1
 * @throws UsageError from {@link budgetSimulationOptions} at the first question with audit items
 */
export async function simulateBudgets(
  plan: Extract<CalibratePlan, { mode: "simulate" }>,
  policy: Policy,
  { stdout, stderr }: CliOutput,
): Promise<number> {
  const lines = await readLabelledLines(plan.labelledPath, policy.name, plan.limit);
  const collected = collectForecasts(policy, lines, plan.question);
  let simulated = 0;
  for (const [question, forecasts] of collected.questions) {
    if (!forecasts.some((forecast) => forecast.audit !== undefined)) {
      stderr.write(`calibrate: ${question}: no audit items in the export, nothing to simulate\n`);
      continue;
    }
    const simulation = simulateReviewBudget(policy, question, forecasts, budgetSimulationOptions(plan));
    stdout.write(formatBudgetSimulation(simulation));
    simulated += 1;
  }
  return simulated > 0 ? 0 : 1;
}
