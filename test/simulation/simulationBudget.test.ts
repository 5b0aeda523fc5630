/**
 * `decisions simulate` is bounded in events and memory: the worst inputs of issue 43 end with a
 * message that names the bound reached and the flag to lower — refused before they run when the
 * inputs alone need more events than the budget, stopped by the budget (not by time) otherwise.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSimulateCommand } from "../../cli/commands/simulateCommand.js";
import { UsageError } from "../../cli/errors.js";
import {
  SIMULATION_LIMITS,
  SimulationBudgetError,
  type SimulationInputs,
  type SimulationLimits,
  simulatePipeline,
} from "../../simulation/index.js";

/** The error a run throws, checked to be a budget's. */
function budgetErrorOf(
  inputs: Partial<SimulationInputs>,
  limits: Partial<SimulationLimits>,
): SimulationBudgetError {
  try {
    simulatePipeline(inputs, { ...SIMULATION_LIMITS, ...limits });
  } catch (error) {
    assert.ok(error instanceof SimulationBudgetError, String(error));
    return error;
  }
  assert.fail("the run ended without reaching its budget");
}

describe("simulate's bounds", () => {
  it("refuses --lines 100000000 (with 1,000 instances) before it runs: more events than the budget, --lines named", async () => {
    const command = createSimulateCommand({ stdout: { write: () => true } });
    await assert.rejects(
      command.run(["--lines", "100000000", "--max-instances", "1000"]),
      (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.ok(error.cause instanceof SimulationBudgetError);
        assert.equal(error.cause.budget, "events");
        assert.equal(error.cause.input, "lines");
        assert.match(
          error.message,
          /would need at least 10,200,000 events .* over its budget of 8,000,000 events: lower --lines, or raise --batch-size or --ingest-rate/,
        );
        return true;
      },
    );
  });

  it("stops --lines 1000 --interactive-rate 1e6 by the bound on interactive items waiting, naming --interactive-rate", () => {
    const error = budgetErrorOf({ lines: 1000, interactiveRate: 1e6 }, { maxInteractiveWaiting: 5_000 });
    assert.equal(error.budget, "interactive-waiting");
    assert.equal(error.input, "interactive-rate");
    assert.match(
      error.message,
      /stopped with 5,001 interactive items waiting, over its bound of 5,000, .*: lower --interactive-rate/,
    );
  });

  it("stops --max-hours 1e9 with a tiny prefill rate by its event budget, long before its simulated time is up", () => {
    const error = budgetErrorOf(
      { lines: 1000, maxHours: 1e9, prefillTokensPerSecond: 0.001 },
      { maxEvents: 20_000 },
    );
    assert.equal(error.budget, "events");
    const hour = Number(/at simulated hour ([\d.]+) of --max-hours 1000000000/.exec(error.message)?.[1]);
    assert.ok(hour < 1e9, error.message);
    assert.match(
      error.message,
      /stopped after its budget of 20,000 events, .* unfinished: lower --max-hours or --lines/,
    );
  });

  it("stops a run whose agenda grows past its bound on events waiting", () => {
    const error = budgetErrorOf({ lines: 1000 }, { maxPendingEvents: 1 });
    assert.equal(error.budget, "pending-events");
    assert.match(error.message, /events waiting, over its bound of 1, /);
  });

  it("leaves a run within its bounds as it was", () => {
    const result = simulatePipeline({ lines: 1000 });
    assert.equal(result.finished, true);
    assert.ok(result.events <= SIMULATION_LIMITS.maxEvents);
  });
});
