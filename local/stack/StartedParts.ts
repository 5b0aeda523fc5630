import { LocalPartError } from "../errors.js";

/**
 * The stop and dispose path of a starting stack: every part it has started, in order, with how it
 * stops. {@link StartedParts.timed} starts a part, registers its stop and records how long it took;
 * {@link StartedParts.stop} stops them all in reverse order (the pollers before the handlers they
 * run, the handlers before the services they call), once.
 */
export class StartedParts {
  /** Milliseconds each timed part took to become ready (the stack adds `total`). */
  readonly startupMs: Record<string, number> = {};
  readonly #parts: { name: string; stop: () => Promise<void> | void }[] = [];
  readonly #log: (line: string) => void;
  #stopping: Promise<void> | undefined;

  /** @param log where "DynamoDB Local ready on … (1.2 s)" lines go. */
  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Registers a part's stop, run when the stack stops (after the stops of the parts registered later). */
  add(name: string, stop: () => Promise<void> | void): void {
    this.#parts.push({ name, stop });
  }

  /**
   * Starts a part, registers its stop, and records and logs how long it took to become ready.
   * @param where where it listens, for the log line. Default: nothing.
   * @throws whatever `start` throws (nothing is registered then).
   */
  async timed<T>(
    name: string,
    start: () => Promise<T>,
    stop: (part: T) => Promise<void>,
    where: (part: T) => string | undefined = () => undefined,
  ): Promise<T> {
    const t0 = performance.now();
    const part = await start();
    this.add(name, () => stop(part));
    const ms = Math.round(performance.now() - t0);
    this.startupMs[name] = ms;
    const at = where(part);
    this.#log(`${name} ready${at === undefined ? "" : ` on ${at}`} (${(ms / 1000).toFixed(1)} s)`);
    return part;
  }

  /**
   * Stops every registered part in reverse order, each one even when an earlier stop failed.
   * Idempotent: a second call gets the first call's promise.
   * @throws AggregateError of {@link LocalPartError}s, one per part that did not stop cleanly.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stopAll();
    return this.#stopping;
  }

  async #stopAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const part of this.#parts.splice(0).reverse()) {
      try {
        await part.stop();
      } catch (error) {
        failures.push(new LocalPartError(part.name, "did not stop cleanly", { cause: error }));
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, "some local parts did not stop cleanly");
  }
}
