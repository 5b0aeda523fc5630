import { AWS_CONSTANTS } from "../awsConstants.js";
import type { EventQueue } from "../EventQueue.js";
import type { MessagePart, MessageQueue } from "./MessageQueue.js";

/** Settings of an {@link EventSourceModel}. */
export interface EventSourceModelOptions {
  batchSize: number;
  batchingWindowSeconds: number;
  /** From messages taken to the invocation starting. */
  receiveSeconds: number;
  /** `MaximumConcurrency` at the start (the controller may change it). */
  maxConcurrency: number;
  /** Whether the documented ramp (5, then +300 a minute) applies; off for the local poller. */
  ramp: boolean;
}

/**
 * A Lambda SQS event source mapping (standard queue): its pollers gather up to `batchSize`
 * messages for at most the batching window and invoke the function with them, no more
 * invocations at once than min(the scaling ramp, `MaximumConcurrency`). The ramp is the documented
 * one: 5 concurrent batches when messages appear, up to 300 more each minute while messages
 * remain, 1,000 at most, back to 5 when the queue is empty.
 */
export class EventSourceModel {
  readonly queue: MessageQueue;
  readonly #events: EventQueue;
  readonly #options: EventSourceModelOptions;
  readonly #invoke: (batch: MessagePart[], done: () => void) => void;
  #maxConcurrency: number;
  #rampLevel: number = AWS_CONSTANTS.sqsInitialConcurrency.value;
  #running = 0;
  #windowEndsAt: number | undefined;
  /** Most invocations at once. */
  peakRunning = 0;
  /** Invocations started. */
  invocations = 0;

  constructor(
    events: EventQueue,
    queue: MessageQueue,
    options: EventSourceModelOptions,
    invoke: (batch: MessagePart[], done: () => void) => void,
  ) {
    this.#events = events;
    this.queue = queue;
    this.#options = options;
    this.#invoke = invoke;
    this.#maxConcurrency = options.maxConcurrency;
    if (options.ramp) this.#events.after(60, () => this.#rampTick());
  }

  /** Invocations running now. */
  running(): number {
    return this.#running;
  }

  /** The mapping's `MaximumConcurrency`. */
  maxConcurrency(): number {
    return this.#maxConcurrency;
  }

  /** Invocations allowed at once now: min(ramp, MaximumConcurrency). */
  allowed(): number {
    return this.#options.ramp ? Math.min(this.#rampLevel, this.#maxConcurrency) : this.#maxConcurrency;
  }

  /** `UpdateEventSourceMapping` of `MaximumConcurrency`: running invocations finish; no new one beyond it. */
  setMaxConcurrency(value: number): void {
    this.#maxConcurrency = value;
    this.poll();
  }

  /** Starts what the queue and the concurrency allow; call after anything that could change either. */
  poll(): void {
    const { batchSize, batchingWindowSeconds } = this.#options;
    while (this.#running < this.allowed() && this.queue.visible() > 0) {
      const now = this.#events.now;
      const full = this.queue.visible() >= batchSize;
      if (!full && batchingWindowSeconds > 0) {
        if (this.#windowEndsAt === undefined) {
          const endsAt = now + batchingWindowSeconds;
          this.#windowEndsAt = endsAt;
          this.#events.at(endsAt, () => {
            if (this.#windowEndsAt !== endsAt) return;
            this.#windowEndsAt = undefined;
            this.#start(true);
            this.poll();
          });
        }
        return;
      }
      this.#start(false);
    }
  }

  #start(windowEnded: boolean): void {
    if (this.#running >= this.allowed() || this.queue.visible() === 0) return;
    if (!windowEnded) this.#windowEndsAt = undefined;
    const batch = this.queue.take(this.#options.batchSize);
    this.#running += 1;
    this.invocations += 1;
    this.peakRunning = Math.max(this.peakRunning, this.#running);
    this.#events.after(this.#options.receiveSeconds, () =>
      this.#invoke(batch, () => {
        this.#running -= 1;
        this.poll();
      }),
    );
  }

  #rampTick(): void {
    const c = AWS_CONSTANTS;
    this.#rampLevel =
      this.queue.visible() > 0
        ? Math.min(c.sqsMaxBatches.value, this.#rampLevel + c.sqsConcurrencyStepPerMinute.value)
        : c.sqsInitialConcurrency.value;
    this.#events.after(60, () => this.#rampTick());
    this.poll();
  }
}
