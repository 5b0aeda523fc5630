/**
 * The ports of the pipeline core: everything {@link decideItems} reaches outside itself through.
 * Plain interfaces, so each caller plugs in its own parts — the decide function the SageMaker
 * `EndpointClient`, the DynamoDB `OutcomeStore` and Powertools telemetry; `decisions classify` an
 * in-process endpoint, its results file and a progress counter; unit tests in-memory fakes.
 */

import type { EndpointInvocation } from "../endpoint/index.js";
import type { Outcome, OutcomeStatus } from "../outcomes/index.js";
import type { Clock } from "../shared/Clock.js";
import type { Deadline } from "../shared/Deadline.js";
import type { RetryEvent } from "../shared/RetryPolicy.js";

/** Per-call settings the core gives a {@link DecisionEndpoint}. */
export interface EndpointCallOptions {
  /** No attempt may start past it; an endpoint that can abort a call in flight does so when it passes. */
  deadline: Deadline;
  /** To be called before each backoff of an endpoint that retries. */
  onRetry?: (event: RetryEvent) => void;
  /** Set when the caller can be interrupted (`decisions classify` on Ctrl-C): abort the call. */
  signal?: AbortSignal;
}

/** The decision model: one System One request body in, the response body out. */
export interface DecisionEndpoint {
  /** The name outcomes record in `request.endpoint`. */
  readonly endpointName: string;
  /**
   * Answers one System One request body (built by `buildSystemOneBody`).
   *
   * @throws a `PermanentError` when the request can never be answered (the model's 4xx): the
   *   group's items get `rejected` outcomes. Anything else thrown gives the items back.
   */
  invoke(body: string, options: EndpointCallOptions): Promise<EndpointInvocation>;
}

/** Per-call settings the core gives an {@link OutcomeSink}. */
export interface OutcomeWriteOptions {
  /** No attempt may start past it. */
  deadline: Deadline;
  /** To be called before each backoff of a sink that retries. */
  onRetry?: (event: RetryEvent) => void;
}

/** What {@link OutcomeSink.record} did: wrote the outcome, or found one standing for its (policy, id). */
export type SinkRecordResult =
  | { recorded: true; outcome: Outcome }
  | { recorded: false; existing: Outcome | Record<string, unknown> | undefined };

/**
 * Where outcomes go, written once per (policy, id): a second write for the same key never replaces
 * the first, it reports the one that stands.
 */
export interface OutcomeSink {
  /**
   * Writes the outcome unless one exists for its (policy, id).
   *
   * @returns the outcome as written, or the existing one.
   * @throws whatever kept it from writing (after its retries): the item is given back.
   */
  record(outcome: Outcome, options: OutcomeWriteOptions): Promise<SinkRecordResult>;
  /**
   * Optional: whether the sink already holds an outcome for (policy, id), known without a request
   * (a results file being resumed keeps an index). The core asks before spending a model call on
   * an item and settles a held one as a duplicate; a sink without it is simply written to.
   */
  holds?(policy: string, id: string): boolean;
}

/** What the core reports as it works (logs and metrics in the function, progress in classify). */
export interface PipelineTelemetry {
  /** An endpoint request for a group succeeded. */
  requestAnswered(policy: string, groupSize: number, invocation: EndpointInvocation): void;
  /** A transient failure is about to be retried. */
  retrying(what: string, event: RetryEvent): void;
  /** An outcome was written. */
  outcomeWritten(policy: string, status: OutcomeStatus): void;
  /** An outcome already stood for this item. */
  duplicate(policy: string, id: string): void;
  /** The call is over: `groups` groups were formed (one endpoint request each, at most). */
  flush(groups: number): void;
}

/** Everything the core reaches outside itself through. */
export interface PipelinePorts {
  endpoint: DecisionEndpoint;
  outcomes: OutcomeSink;
  telemetry: PipelineTelemetry;
  /** Default: the system clock. */
  clock?: Clock;
}
