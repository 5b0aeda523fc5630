import type { DeliveryFailure } from "../../contract/delivery/DeliveryFailureSchema.js";
import type { DeliverySchedule } from "../../contract/delivery/deliverySchedule.js";
import type { Delivery } from "./deliveriesOf.js";
import { failureOf } from "./failureOf.js";
import { nextStepOf } from "./nextStepOf.js";
import { type SendPorts, sendDelivery } from "./sendDelivery.js";

/** Options of {@link DeliveryRunner}. */
export interface DeliveryRunnerOptions extends Omit<SendPorts, "timeoutMs"> {
  schedule: DeliverySchedule;
  /** Keeps a delivery given up on (the delivery DLQ). A failure to keep it is told to `onError`. */
  onFailed: (failure: DeliveryFailure) => Promise<void>;
  /** Told of each delivery that got a 2xx, with the attempts it took. Default: nothing. */
  onDelivered?: (delivery: Delivery, attempts: number) => void;
  /** Told of what went wrong outside a delivery (the DLQ refused a failure). Default: nothing. */
  onError?: (error: unknown) => void;
  /** Jitter's random source in [0, 1). Default `Math.random`. */
  random?: () => number;
}

/**
 * Runs deliveries beside the pipeline, each on its own: attempt, wait by the schedule, attempt
 * again, until a 2xx, a refusal or the last attempt — then the failure goes to `onFailed`. Nothing
 * it does waits on another delivery or on the caller: {@link DeliveryRunner.start} returns at once.
 */
export class DeliveryRunner {
  readonly #options: DeliveryRunnerOptions;
  readonly #running = new Set<Promise<void>>();
  readonly #stopping = new AbortController();

  constructor(options: DeliveryRunnerOptions) {
    this.#options = options;
  }

  /** How many deliveries are under way (attempting or waiting to retry). */
  get pending(): number {
    return this.#running.size;
  }

  /** Starts a delivery; it runs on its own until it ends. */
  start(delivery: Delivery): void {
    if (this.#stopping.signal.aborted) return;
    const run = this.#run(delivery).catch((error: unknown) => this.#options.onError?.(error));
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
  }

  /** Stops waiting: deliveries waiting to retry end without another attempt. Resolves when all ended. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await Promise.all([...this.#running]);
  }

  async #run(delivery: Delivery): Promise<void> {
    const { schedule } = this.#options;
    const random = this.#options.random ?? Math.random;
    for (let attempt = 1; ; attempt += 1) {
      const result = await sendDelivery(delivery, { ...this.#options, timeoutMs: schedule.attemptTimeoutMs });
      const step = nextStepOf(result, attempt, schedule, random);
      if (step.kind === "delivered") {
        this.#options.onDelivered?.(delivery, attempt);
        return;
      }
      if (step.kind === "give-up") {
        await this.#options.onFailed(failureOf(delivery, attempt, step.reason, step.answer, new Date()));
        return;
      }
      if (!(await this.#wait(step.delayMs))) return;
    }
  }

  /** Waits `ms`; false when stopped meanwhile. */
  #wait(ms: number): Promise<boolean> {
    const signal = this.#stopping.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
