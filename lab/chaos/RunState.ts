import { setTimeout as sleep } from "node:timers/promises";
import type { Lane } from "../../contract/lanes/lanes.js";
import type { ChaosWorkload } from "./buildChaosWorkload.js";
import type { SentMessage } from "./checkChaosInvariant.js";
import type { FunctionHostEvent } from "./FunctionHostConfig.js";

/** What the run knows while it flows: what was sent, what ended, what is in flight, why records failed. */
export class RunState {
  readonly sent: SentMessage[] = [];
  /** Message ids deleted after success. */
  readonly ended = new Set<string>();
  /** How many of them each lane's poller deleted. */
  readonly endedIn: Record<Lane, number> = { interactive: 0, bulk: 0 };
  /** Message ids in a batch the host started and has not finished, with their lane. */
  readonly inFlight = new Map<string, Lane>();
  /** The last reason a record was given back to SQS, by message id. */
  readonly failures = new Map<string, string>();
  recordFailures = 0;
  /** Records re-queued for capacity so far. */
  requeues = 0;
  /** Message ids re-queued whose batch has not reported yet: deleted, but not ended. */
  readonly #requeued = new Set<string>();
  readonly failureKinds = new Map<string, number>();
  sendFailures = 0;
  sendDone = false;
  faultsDone = false;
  #lastProgressAt = Date.now();
  #batchStarted: ((messages: string[]) => void)[] = [];

  constructor(readonly workload: ChaosWorkload) {}

  onEvent(event: FunctionHostEvent): void {
    if (event.chaos === "batch-start") {
      for (const id of event.messages) this.inFlight.set(id, event.lane);
      if (event.messages.length > 1)
        for (const resolve of this.#batchStarted.splice(0)) resolve(event.messages);
    } else if (event.chaos === "batch-done") {
      let ended = 0;
      for (const id of event.succeeded) {
        this.inFlight.delete(id);
        // A re-queued record was deleted, but its item waits in the copy: not an end, not progress.
        if (this.#requeued.delete(id)) continue;
        this.ended.add(id);
        this.endedIn[event.lane] += 1;
        ended += 1;
      }
      if (ended > 0) this.#lastProgressAt = Date.now();
      for (const id of event.failed) {
        this.inFlight.delete(id);
        if (event.wholeBatchFailure !== undefined)
          this.failures.set(id, `whole batch: ${event.wholeBatchFailure}`);
      }
    }
  }

  /** The decide function re-queued `messageId` as a delayed copy (logged before its batch reports). */
  onRequeue(messageId: string): void {
    this.requeues += 1;
    this.#requeued.add(messageId);
  }

  /** Whether no message has ended for `ms`. */
  stalledFor(ms: number): boolean {
    return Date.now() - this.#lastProgressAt > ms;
  }

  /** Milliseconds since a message last ended. */
  msSinceProgress(): number {
    return Date.now() - this.#lastProgressAt;
  }

  /** The message ids of the next batch of two or more the host starts ([] when none starts within `timeoutMs`). */
  async nextBatchStart(timeoutMs: number): Promise<string[]> {
    const started = new Promise<string[]>((resolve) => this.#batchStarted.push(resolve));
    const timer = new AbortController();
    const result = await Promise.race([
      started,
      sleep(timeoutMs, [] as string[], { signal: timer.signal }).catch(() => [] as string[]),
    ]);
    timer.abort();
    return result;
  }
}
