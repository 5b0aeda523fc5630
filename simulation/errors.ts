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
