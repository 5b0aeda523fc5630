import { RetryBudget } from "../../core/common/RetryBudget.js";
import { RetryPolicy } from "../../core/common/RetryPolicy.js";
import type { SeededRandom } from "../../core/common/SeededRandom.js";
import { AimdLimit } from "../../core/flow/AimdLimit.js";
import { CallLatencyEstimate } from "../../core/flow/CallLatencyEstimate.js";
import { AWS_CONSTANTS } from "../awsConstants.js";
import type { EventQueue } from "../EventQueue.js";
import type { CallLane, EndpointModel } from "./EndpointModel.js";
import type { JobLedgerModel } from "./JobLedgerModel.js";
import type { MessagePart, MessageQueue } from "./MessageQueue.js";

/** How a group of lines ended in one invocation. */
export type LineEnd = "decided" | "dead_lettered";

/** Settings of a {@link DecideFunctionModel} (one lane's decide function). */
export interface DecideFunctionOptions {
  lane: CallLane;
  /** `MAX_CONCURRENT_GROUPS`. */
  groupsPerInvocation: number;
  timeoutSeconds: number;
  deadlineMarginSeconds: number;
  maxAttempts: number;
  retryAfterSeconds: number;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  endpointErrorRate: number;
  invocationOverheadSeconds: number;
  coldStartSeconds: number;
  linesPerRequest: number;
  /** Seconds a request of `lines` lines holds an instance (before variation). */
  serviceSeconds: (lines: number) => number;
  /** Coefficient of variation of a request's time. */
  serviceVariation: number;
}

/** What the model reports to whoever counts. */
export interface DecideFunctionSinks {
  /** `count` lines of `part` ended at `at`. */
  ended: (part: MessagePart, count: number, how: LineEnd, at: number) => void;
}

interface FunctionInstance {
  limiter: AimdLimit;
  budget: RetryBudget;
  latency: CallLatencyEstimate;
  waiters: Array<{ startBy: number; grant: () => void; expire: () => void; done: boolean }>;
  wakeAt: number | undefined;
}

interface Group {
  part: MessagePart;
  lines: number;
}

/** The busy re-queue's delays (`BusyRecordRequeuer`'s defaults: 2 s doubling, 60 s at most). */
const REQUEUE_BASE_SECONDS = 2;
const REQUEUE_MAX_SECONDS = 60;

/**
 * One lane's decide function on simulated time: each invocation splits its batch into groups
 * (one endpoint request each, `linesPerRequest` lines on average) and runs `groupsPerInvocation`
 * of them at once, each call under its function instance's adaptive limit (`AimdLimit`, the code's own rule),
 * retried after a 503 or a 5xx with full-jitter backoff (at least Retry-After) while attempts, the
 * deadline and the instance's retry budget (`RetryBudget`, the code's own) allow; a call does not
 * start when the instance's usual answer time (`CallLatencyEstimate`, the code's own) no longer
 * fits before the deadline. A group that failed only for capacity is re-queued as a delayed copy
 * (receive count 0) and reported done; one that failed otherwise goes back to the queue after the
 * visibility timeout, or to the DLQ on its last receive. Served lines are counted by the job
 * ledger. Function instances are kept warm between invocations (their limiter, budget and latency
 * estimate carry over).
 */
export class DecideFunctionModel {
  readonly #events: EventQueue;
  readonly #random: SeededRandom;
  readonly #options: DecideFunctionOptions;
  readonly #endpoint: EndpointModel;
  readonly #ledger: JobLedgerModel;
  readonly #queue: MessageQueue;
  readonly #sinks: DecideFunctionSinks;
  readonly #onQueueChange: () => void;
  readonly #idle: FunctionInstance[] = [];
  readonly #retry: RetryPolicy;
  /** Calls sent to the endpoint (attempts), refused with 503, failed otherwise. */
  calls = 0;
  refused = 0;
  errors = 0;
  retries = 0;
  /** Lines re-queued as delayed copies (busy), given back to SQS (failed), decided. */
  requeuedLines = 0;
  givenBackLines = 0;
  /** Function instances created (cold starts). */
  coldStarts = 0;
  /** Calls out now (between a permit and the answer), and the most at once. */
  callsOut = 0;
  peakCallsOut = 0;

  constructor(
    events: EventQueue,
    random: SeededRandom,
    options: DecideFunctionOptions,
    parts: {
      endpoint: EndpointModel;
      ledger: JobLedgerModel;
      queue: MessageQueue;
      onQueueChange: () => void;
    },
    sinks: DecideFunctionSinks,
  ) {
    this.#events = events;
    this.#random = random;
    this.#options = options;
    this.#endpoint = parts.endpoint;
    this.#ledger = parts.ledger;
    this.#queue = parts.queue;
    this.#onQueueChange = parts.onQueueChange;
    this.#sinks = sinks;
    this.#retry = new RetryPolicy({ maxAttempts: options.maxAttempts, random: () => random.next() });
  }

  /** Runs one invocation on `batch`; `done` is called when it returns. */
  invoke(batch: MessagePart[], done: () => void): void {
    const warm = this.#idle.pop();
    const instance = warm ?? this.#newInstance();
    const startDelay = this.#options.invocationOverheadSeconds + (warm ? 0 : this.#options.coldStartSeconds);
    const receivedAt = this.#events.now;
    this.#events.after(startDelay, () => {
      const started = this.#events.now;
      const deadline = started + this.#options.timeoutSeconds - this.#options.deadlineMarginSeconds;
      const groups = this.#groupsOf(batch);
      let next = 0;
      let open = groups.length;
      const finishOne = () => {
        open -= 1;
        if (next < groups.length) runGroup(groups[next++] as Group);
        else if (open === 0) {
          this.#idle.push(instance);
          done();
        }
      };
      const runGroup = (group: Group) => this.#runGroup(instance, group, deadline, receivedAt, finishOne);
      const first = Math.min(this.#options.groupsPerInvocation, groups.length);
      next = first;
      for (let i = 0; i < first; i++) runGroup(groups[i] as Group);
      if (groups.length === 0) {
        this.#idle.push(instance);
        done();
      }
    });
  }

  #newInstance(): FunctionInstance {
    this.coldStarts += 1;
    return {
      limiter: new AimdLimit({ maxLimit: this.#options.groupsPerInvocation }),
      budget: new RetryBudget(),
      latency: new CallLatencyEstimate(),
      waiters: [],
      wakeAt: undefined,
    };
  }

  /** Splits a batch into requests: `linesPerRequest` lines each on average (a part's lines share a state). */
  #groupsOf(batch: MessagePart[]): Group[] {
    const groups: Group[] = [];
    for (const part of batch) {
      const exact = part.count / this.#options.linesPerRequest;
      const whole = Math.floor(exact);
      let count = whole + (this.#random.next() < exact - whole ? 1 : 0);
      count = Math.min(part.count, Math.max(1, count));
      const base = Math.floor(part.count / count);
      let extra = part.count - base * count;
      for (let i = 0; i < count; i++) {
        const lines = base + (extra > 0 ? 1 : 0);
        if (extra > 0) extra -= 1;
        groups.push({ part: { ...part, count: lines }, lines });
      }
    }
    return groups;
  }

  #runGroup(
    instance: FunctionInstance,
    group: Group,
    deadline: number,
    receivedAt: number,
    finish: () => void,
  ): void {
    // No attempt starts once the usual answer time no longer fits (while another call is out).
    const othersOut = instance.limiter.inFlight() > 0;
    const startBy = deadline - (othersOut ? instance.latency.neededMs() / 1000 : 0);
    let taken = 0;
    const attempt = (n: number) => {
      if (this.#events.now >= startBy) {
        this.#busy(group, 0, finish);
        return;
      }
      this.#acquire(
        instance,
        startBy,
        () => this.#call(instance, group, n, taken, finish, onFailure),
        () => this.#busy(group, 0, finish),
      );
    };
    const onFailure = (n: number, atCapacity: boolean, retryAfterSeconds: number) => {
      const busyOrFailed = () =>
        atCapacity ? this.#busy(group, retryAfterSeconds, finish) : this.#giveBack(group, receivedAt, finish);
      if (n >= this.#options.maxAttempts) return busyOrFailed();
      const delay = Math.max(
        Math.floor(this.#random.next() * this.#retry.capFor(n)) / 1000,
        Math.ceil(retryAfterSeconds * 1000) / 1000,
      );
      if (startBy - this.#events.now <= delay) return busyOrFailed();
      const tokens = instance.budget.tryAcquire();
      if (tokens === undefined) return busyOrFailed();
      taken = tokens;
      this.retries += 1;
      this.#events.after(delay, () => attempt(n + 1));
    };
    attempt(1);
  }

  #call(
    instance: FunctionInstance,
    group: Group,
    n: number,
    taken: number,
    finish: () => void,
    onFailure: (n: number, atCapacity: boolean, retryAfterSeconds: number) => void,
  ): void {
    const order = instance.limiter.take();
    this.callsOut += 1;
    this.peakCallsOut = Math.max(this.peakCallsOut, this.callsOut);
    this.calls += 1;
    const sentAt = this.#events.now;
    const release = (signal: "ok" | "overload" | "error", retryAfterMs?: number) => {
      this.callsOut -= 1;
      instance.limiter.release(order, signal, this.#events.now * 1000, retryAfterMs);
      this.#pump(instance);
    };
    const mean = this.#options.serviceSeconds(group.lines);
    const variation = this.#options.serviceVariation;
    const serviceSeconds = variation > 0 ? mean * Math.max(0.2, 1 + variation * this.#random.normal()) : mean;
    const admitted = this.#endpoint.invoke({
      lane: this.#options.lane,
      serviceSeconds,
      onServed: () => {
        if (this.#random.next() < this.#options.endpointErrorRate) {
          this.errors += 1;
          release("error");
          onFailure(n, false, 0);
          return;
        }
        instance.latency.observe((this.#events.now - sentAt) * 1000);
        release("ok");
        instance.budget.onSuccess(taken);
        const endsAt = this.#ledger.write(group.lines, this.#events.now);
        this.#events.at(endsAt, () => {
          this.#sinks.ended(group.part, group.lines, "decided", this.#events.now);
          finish();
        });
      },
    });
    if (!admitted) {
      this.refused += 1;
      const retryAfterSeconds = this.#options.retryAfterSeconds;
      release("overload", retryAfterSeconds * 1000);
      onFailure(n, true, retryAfterSeconds);
    }
  }

  /** Waits for a permit of the instance's limiter, in arrival order, until `startBy`. */
  #acquire(instance: FunctionInstance, startBy: number, grant: () => void, expire: () => void): void {
    const waiter = { startBy, grant, expire, done: false };
    instance.waiters.push(waiter);
    this.#events.at(startBy, () => {
      if (waiter.done) return;
      waiter.done = true;
      instance.waiters.splice(instance.waiters.indexOf(waiter), 1);
      waiter.expire();
      this.#pump(instance);
    });
    this.#pump(instance);
  }

  #pump(instance: FunctionInstance): void {
    while (instance.waiters.length > 0) {
      const nowMs = this.#events.now * 1000;
      const limiter = instance.limiter;
      if (limiter.inFlight() >= Math.floor(limiter.limit())) return;
      // A microsecond of slack: seconds × 1000 need not round-trip to the pause's milliseconds.
      if (nowMs + 0.001 < limiter.pausedUntilMs()) {
        const wakeAt = limiter.pausedUntilMs() / 1000;
        if (instance.wakeAt === undefined || instance.wakeAt > wakeAt) {
          instance.wakeAt = wakeAt;
          this.#events.at(wakeAt, () => {
            instance.wakeAt = undefined;
            this.#pump(instance);
          });
        }
        return;
      }
      const waiter = instance.waiters.shift();
      if (waiter === undefined) return;
      waiter.done = true;
      waiter.grant();
    }
  }

  /** Busy: a delayed copy goes back to the queue (receive count 0); the original is done. */
  #busy(group: Group, retryAfterSeconds: number, finish: () => void): void {
    const requeues = group.part.requeues + 1;
    const cap = Math.min(REQUEUE_MAX_SECONDS, REQUEUE_BASE_SECONDS * 2 ** Math.max(0, requeues - 1));
    const jittered = Math.floor(this.#random.next() * cap);
    const delay = Math.min(
      AWS_CONSTANTS.sqsMaxDelaySeconds.value,
      Math.max(1, jittered, Math.ceil(retryAfterSeconds)),
    );
    this.requeuedLines += group.lines;
    const copy: MessagePart = { ...group.part, count: group.lines, receives: 0, requeues };
    this.#events.after(delay, () => {
      this.#queue.push(copy);
      this.#onQueueChange();
    });
    finish();
  }

  /** Failed: back to SQS after the visibility timeout, or to the DLQ on the last receive. */
  #giveBack(group: Group, receivedAt: number, finish: () => void): void {
    if (group.part.receives >= this.#options.maxReceiveCount) {
      this.#sinks.ended(group.part, group.lines, "dead_lettered", this.#events.now);
      finish();
      return;
    }
    this.givenBackLines += group.lines;
    const part: MessagePart = { ...group.part, count: group.lines };
    this.#events.at(receivedAt + this.#options.visibilityTimeoutSeconds, () => {
      this.#queue.push(part);
      this.#onQueueChange();
    });
    finish();
  }
}
