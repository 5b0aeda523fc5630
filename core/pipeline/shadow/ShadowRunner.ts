import type { ShadowCandidate, ShadowResult } from "../../../contract/outcome/ShadowRecordSchema.js";
import { type Clock, systemClock } from "../../common/Clock.js";
import { Deadline } from "../../common/Deadline.js";
import { mapBounded } from "../../common/mapBounded.js";
import { truncateText } from "../../common/truncateText.js";
import type { EndpointInvocation } from "../../endpoint/index.js";
import { REASON_CHARS, type ShadowRecordInput } from "../../outcomes/index.js";
import { applyPolicy, type Policy, type PolicyShadow } from "../../policy/index.js";
import { buildSystemOneBody } from "../buildSystemOneBody.js";
import type { DecisionEndpoint, ShadowedGroup, ShadowGroupStart, ShadowStart, ShadowStep } from "../ports.js";
import { type ReadResponse, readSystemOneResponse } from "../readSystemOneResponse.js";
import { agreementWithLive, type LiveAgreement } from "./agreementWithLive.js";
import { CandidateEndpointAbsentError, CandidateTimeoutError, ShadowAbandonedError } from "./errors.js";
import { shadowOf } from "./shadowOf.js";

/** Where shadow records go: `ShadowRecordStore` (one PutItem, no retry). */
export interface ShadowSink {
  /** @throws whatever kept it from writing: logged, never the live outcome's failure. */
  put(input: ShadowRecordInput, options: { signal?: AbortSignal }): Promise<unknown>;
}

/** What the shadow step reports (logs and the shadow metrics of the decide function). */
export interface ShadowTelemetry {
  /** The candidate endpoint is being asked about a group (one request, whatever its end). */
  candidateCalled(policy: string, candidate: string): void;
  /**
   * A shadow record was written: the candidate's result, with how it compares with the live outcome
   * (`versusLive`), or (`failure`) why it gave none.
   */
  shadowRecorded(
    policy: string,
    id: string,
    candidate: string,
    failure: unknown,
    versusLive: LiveAgreement | undefined,
  ): void;
  /** A sampled item's shadow record was not written (the live outcome stands). */
  shadowNotWritten(policy: string, id: string, candidate: string, reason: unknown): void;
}

/** Options of a {@link ShadowRunner}. */
export interface ShadowRunnerOptions {
  /** Where the records go. */
  records: ShadowSink;
  /**
   * The candidate endpoint (`SHADOW_ENDPOINT_NAME`): its own client, calls in the bulk lane, no
   * retries. Default none: a section with `endpoint: candidate` gets failure records.
   */
  candidate?: DecisionEndpoint;
  /** How long a group's candidate may take, from when it is handed over (a wait for a place included). Default 5000. */
  budgetMs?: number;
  /** Candidate calls in flight at once (per function instance). Default 2. */
  maxConcurrent?: number;
  /** How long the records of one group may take to write. Default 2000. */
  writeBudgetMs?: number;
  /** Shadow records written at once per group. Default 4. */
  writeConcurrency?: number;
  telemetry?: ShadowTelemetry;
  /** Default: the system clock (the candidate call's deadline). */
  clock?: Clock;
}

/** The defaults of {@link ShadowRunnerOptions}. */
export const SHADOW_DEFAULTS = {
  budgetMs: 5000,
  maxConcurrent: 2,
  writeBudgetMs: 2000,
  writeConcurrency: 4,
} as const;

/** A candidate call {@link ShadowRunner.begin} started: its answer, awaited when the group is observed. */
interface BegunCall extends ShadowStart {
  answer: Promise<CandidateAnswer>;
}

/** What the candidate said for a group. */
interface CandidateAnswer {
  read: ReadResponse;
  endpointName: string;
  /** Absent when the live answer served (a policy-only candidate asking the same questions). */
  invocation?: EndpointInvocation;
}

/**
 * The shadow step of the decide function (`ShadowStep`): for each group whose live outcomes are
 * written, the items its policy's `shadow` section samples (`shadowOf`, by policy and id) are
 * decided again by the candidate — the candidate endpoint's answer, or with `endpoint: live` the
 * live answer itself (a policy-only candidate: thresholds, temperatures, rules) — at the candidate
 * version's thresholds and rules, and each one's result is kept as a shadow record through the
 * {@link ShadowSink}.
 *
 * The live path never waits on it: `observe` returns at once; the candidate gets its own budget
 * (`budgetMs`, never past the call's write deadline), its own bound on calls in flight, and no
 * retry. Whatever goes wrong — no endpoint, a timeout, a 5xx, an unreadable answer — becomes the
 * record's `failure`; a record that cannot be written is a log line. The caller awaits
 * {@link drain} before its invocation ends, with a grace bounded by its own live work's time: a
 * candidate that has not answered by then is abandoned ({@link ShadowAbandonedError}), so a
 * stalled candidate holds the live invocation for at most that grace and its records' writes.
 */
export class ShadowRunner implements ShadowStep {
  readonly #records: ShadowSink;
  readonly #candidate: DecisionEndpoint | undefined;
  readonly #budgetMs: number;
  readonly #maxConcurrent: number;
  readonly #writeBudgetMs: number;
  readonly #writeConcurrency: number;
  readonly #telemetry: ShadowTelemetry | undefined;
  readonly #clock: Clock;
  readonly #steps = new Set<Promise<void>>();
  /** The candidate calls of steps still waiting for an answer, by the candidate each asks. */
  readonly #asking = new Map<AbortController, string>();
  readonly #waiting: (() => void)[] = [];
  #inFlight = 0;

  constructor(options: ShadowRunnerOptions) {
    this.#records = options.records;
    this.#candidate = options.candidate;
    this.#budgetMs = options.budgetMs ?? SHADOW_DEFAULTS.budgetMs;
    this.#maxConcurrent = options.maxConcurrent ?? SHADOW_DEFAULTS.maxConcurrent;
    this.#writeBudgetMs = options.writeBudgetMs ?? SHADOW_DEFAULTS.writeBudgetMs;
    this.#writeConcurrency = options.writeConcurrency ?? SHADOW_DEFAULTS.writeConcurrency;
    this.#telemetry = options.telemetry;
    this.#clock = options.clock ?? systemClock;
    if (!Number.isInteger(this.#maxConcurrent) || this.#maxConcurrent < 1)
      throw new RangeError(`maxConcurrent must be a positive integer, got ${this.#maxConcurrent}`);
  }

  /** Steps started and not yet ended. */
  get pending(): number {
    return this.#steps.size;
  }

  observe(group: ShadowedGroup): void {
    const plan = group.policy.shadow;
    if (plan === undefined) {
      group.begun?.cancel();
      return;
    }
    const sampled = group.items.flatMap(({ item, outcome }) => {
      const sample = shadowOf(plan, group.policy.name, item.id);
      return sample === undefined ? [] : [{ item, outcome, sample }];
    });
    if (sampled.length === 0) {
      group.begun?.cancel();
      return;
    }
    const step = this.#shadow(group, plan, sampled).then(
      () => {
        this.#steps.delete(step);
      },
      (error: unknown) => {
        // #shadow catches what it can; should it throw all the same, each sampled item says so.
        this.#steps.delete(step);
        for (const { item } of sampled)
          this.#telemetry?.shadowNotWritten(group.policy.name, item.id, plan.candidate, error);
      },
    );
    this.#steps.add(step);
  }

  begin(group: ShadowGroupStart): ShadowStart | undefined {
    const plan = group.policy.shadow;
    if (plan === undefined || plan.endpoint === "live" || this.#candidate === undefined) return undefined;
    if (!group.items.some((item) => shadowOf(plan, group.policy.name, item.id) !== undefined))
      return undefined;
    const cancel = new AbortController();
    const answer = this.#ask(group, plan, cancel.signal);
    // Observed later (its outcome read there), or cancelled: never an unhandled rejection.
    answer.catch(() => undefined);
    const begun: BegunCall = {
      answer,
      cancel: () => cancel.abort(new Error("the live group failed: nothing to compare the candidate with")),
    };
    return begun;
  }

  async drain(options: { graceMs?: number } = {}): Promise<void> {
    const { graceMs } = options;
    if (graceMs !== undefined && this.#steps.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<"grace">((resolve) => {
        timer = setTimeout(() => resolve("grace"), Math.max(0, graceMs));
      });
      const ended = (async () => {
        while (this.#steps.size > 0) await Promise.all([...this.#steps]);
        return "ended" as const;
      })();
      const first = await Promise.race([ended, graceOver]);
      clearTimeout(timer);
      if (first === "grace") {
        // Abandoned: each call still out (or waiting for a place) is aborted, and its step writes
        // its records with that failure — the only wait left.
        for (const [call, candidate] of this.#asking)
          call.abort(new ShadowAbandonedError(candidate, Math.max(0, graceMs)));
      }
    }
    while (this.#steps.size > 0) await Promise.all([...this.#steps]);
  }

  async #shadow(
    group: ShadowedGroup,
    plan: PolicyShadow,
    sampled: readonly {
      item: ShadowedGroup["items"][number]["item"];
      outcome: ShadowedGroup["items"][number]["outcome"];
      sample: { rate: number; draw: number };
    }[],
  ): Promise<void> {
    let answer: CandidateAnswer | undefined;
    let failure: unknown;
    try {
      const begun = group.begun as BegunCall | undefined;
      answer = await (begun?.answer ?? this.#ask(group, plan));
    } catch (error) {
      failure = error;
    }
    const inputs = sampled.map(({ item, outcome, sample }): ShadowRecordInput => {
      const base = {
        policy: group.policy.name,
        id: item.id,
        live: { updatedAt: outcome.updated_at, status: outcome.status },
        sample,
      };
      if (answer === undefined)
        return { ...base, candidate: identityOf(plan, undefined), failure: failure ?? "no answer" };
      try {
        return {
          ...base,
          candidate: identityOf(plan, answer),
          result: resultOf(plan.policy, item.facts, answer.read),
          ...(answer.invocation !== undefined
            ? {
                timings: {
                  endpoint_ms: answer.invocation.latencyMs,
                  endpoint_total_ms: answer.invocation.totalMs,
                },
              }
            : {}),
        };
      } catch (error) {
        return { ...base, candidate: identityOf(plan, answer), failure: error };
      }
    });
    const writeMs = Math.min(this.#writeBudgetMs, group.finishBy.remainingMs());
    if (writeMs <= 0) {
      for (const input of inputs)
        this.#telemetry?.shadowNotWritten(input.policy, input.id, plan.candidate, "no time was left");
      return;
    }
    const signal = AbortSignal.timeout(writeMs);
    const written = await mapBounded(inputs, this.#writeConcurrency, (input) =>
      this.#records.put(input, { signal }),
    );
    for (const [index, result] of written.entries()) {
      const input = inputs[index] as ShadowRecordInput;
      const live = sampled[index]?.outcome;
      if (result.status === "fulfilled")
        this.#telemetry?.shadowRecorded(
          input.policy,
          input.id,
          plan.candidate,
          input.failure,
          input.result !== undefined && live !== undefined
            ? agreementWithLive(live, input.result)
            : undefined,
        );
      else this.#telemetry?.shadowNotWritten(input.policy, input.id, plan.candidate, result.reason);
    }
  }

  /** Asks the candidate within the budget: the live answer itself when nothing would differ. */
  async #ask(
    group: ShadowGroupStart | ShadowedGroup,
    plan: PolicyShadow,
    cancel?: AbortSignal,
  ): Promise<CandidateAnswer> {
    const body = buildSystemOneBody(plan.policy, group.stateText);
    if (plan.endpoint === "live") {
      if (!("live" in group)) throw new CandidateEndpointAbsentError(plan.candidate, plan.endpoint);
      // The candidate version asks the live questions (it overrides only what is applied to the
      // answers): the live model's answer is the candidate's, no second call.
      if (body !== group.live.body) throw new CandidateEndpointAbsentError(plan.candidate, plan.endpoint);
      return { read: group.live.read, endpointName: group.live.endpointName };
    }
    const endpoint = this.#candidate;
    if (endpoint === undefined) throw new CandidateEndpointAbsentError(plan.candidate, plan.endpoint);
    const budgetMs = Math.min(this.#budgetMs, group.finishBy.remainingMs());
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new CandidateTimeoutError(plan.candidate, this.#budgetMs)),
      budgetMs,
    );
    this.#asking.set(controller, plan.candidate);
    const onCancel = (): void => controller.abort(cancel?.reason);
    cancel?.addEventListener("abort", onCancel, { once: true });
    try {
      await this.#place(controller.signal);
      try {
        this.#telemetry?.candidateCalled(group.policy.name, plan.candidate);
        const invocation = await settledBefore(
          endpoint.invoke(body, {
            deadline: new Deadline(this.#clock.now() + budgetMs, this.#clock),
            signal: controller.signal,
          }),
          controller.signal,
        );
        return {
          read: readSystemOneResponse(invocation.body, plan.policy, endpoint.endpointName),
          endpointName: endpoint.endpointName,
          invocation,
        };
      } finally {
        this.#release();
      }
    } finally {
      clearTimeout(timer);
      cancel?.removeEventListener("abort", onCancel);
      this.#asking.delete(controller);
    }
  }

  /** Waits for one of the `maxConcurrent` places, or rejects with the signal's reason. */
  #place(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#inFlight < this.#maxConcurrent) {
      this.#inFlight += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const take = (): void => {
        signal.removeEventListener("abort", onAbort);
        this.#inFlight += 1;
        resolve();
      };
      const onAbort = (): void => {
        const at = this.#waiting.indexOf(take);
        if (at !== -1) this.#waiting.splice(at, 1);
        reject(signal.reason);
      };
      this.#waiting.push(take);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  #release(): void {
    this.#inFlight -= 1;
    this.#waiting.shift()?.();
  }
}

/**
 * `call`'s value, or the signal's reason once it aborts, whichever comes first. A call that
 * ignores the signal goes on unobserved by the step, its late settling absorbed here so that it is
 * never an unhandled rejection.
 */
function settledBefore<T>(call: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    call.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** What answered: the candidate's name and version, and the model the endpoint reported. */
function identityOf(plan: PolicyShadow, answer: CandidateAnswer | undefined): ShadowCandidate {
  const response = answer?.read.response;
  return {
    name: plan.candidate,
    ...(answer !== undefined ? { endpoint: answer.endpointName } : {}),
    ...(response !== undefined ? { model: response.model } : {}),
    ...(response?.model_sha256 !== undefined ? { model_sha256: response.model_sha256 } : {}),
    ...(response?.adapter_build !== undefined ? { adapter_build: response.adapter_build } : {}),
    policy_version: plan.policy.version,
    policy_sha256: plan.policy.sha256,
    ...(answer?.read.promptSha256 !== undefined ? { prompt_sha256: answer.read.promptSha256 } : {}),
  };
}

/** The candidate version's decision on the model's answers, as a shadow record's result. */
function resultOf(policy: Policy, facts: Record<string, unknown>, read: ReadResponse): ShadowResult {
  const decision = applyPolicy(policy, facts, read.response.answers);
  return {
    status: decision.status,
    ...(decision.reason !== undefined ? { reason: truncateText(decision.reason, REASON_CHARS) } : {}),
    answers: Object.fromEntries(
      Object.entries(decision.answers).map(([qid, answer]) => [qid, { ...answer }]),
    ),
    rules_fired: decision.rules_fired.map((rule) => ({ ...rule })),
  };
}
