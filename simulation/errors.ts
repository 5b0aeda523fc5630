/** A simulation input that is out of range or inconsistent; the message names the flag and what it accepts. */
export class SimulationInputError extends Error {
  override name = "SimulationInputError";
  constructor(
    /** The input (its flag name without dashes). */
    readonly input: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Which bound of a simulation run a {@link SimulationBudgetError} names. */
export type SimulationBudget = "events" | "pending-events" | "interactive-waiting";

/**
 * A simulation that would exceed (or did exceed) its bounds in events or memory: refused before it
 * starts when its inputs alone need more events than the budget, or stopped as soon as it runs past
 * one. The message names the bound, what was reached and the flags that lower it.
 */
export class SimulationBudgetError extends SimulationInputError {
  override name = "SimulationBudgetError";
  constructor(
    /** The bound that was reached. */
    readonly budget: SimulationBudget,
    /** The flag to change first (without dashes). */
    input: string,
    message: string,
  ) {
    super(input, message);
  }
}
