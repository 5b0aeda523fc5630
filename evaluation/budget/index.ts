/**
 * What a budget of review labels buys: a replay of a labelled export under today's newest-first
 * queue, a uniform draw, the console's margin order and stratified audits
 * (`decisions calibrate --simulate-budget N`).
 */
export { formatBudgetSimulation } from "./formatBudgetSimulation.js";
export {
  BUDGET_STRATEGIES,
  type BudgetSimulation,
  type BudgetSimulationOptions,
  type BudgetStrategy,
  type BudgetStrategyResult,
  type SimulatedStratum,
  simulateReviewBudget,
} from "./simulateReviewBudget.js";
