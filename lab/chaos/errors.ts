/** Base class of the chaos run's own errors. */
export class ChaosError extends Error {
  override name = "ChaosError";
}

/** A fault could not be injected or undone (a part did not restart); the run stops. */
export class FaultInjectionError extends ChaosError {
  override name = "FaultInjectionError";
  readonly fault: string;
  constructor(fault: string, message: string, options?: ErrorOptions) {
    super(`fault ${fault}: ${message}`, options);
    this.fault = fault;
  }
}
