/**
 * The ports of the pipeline core: everything {@link decideItems} reaches outside itself through.
 * Plain interfaces, so each caller plugs in its own parts — the decide function the SageMaker
 * `EndpointClient`, the DynamoDB `OutcomeStore` and Powertools telemetry; `decisions classify` an
 * in-process endpoint, its results file and a progress counter; unit tests in-memory fakes.
 */

import type { Lane } from "../../contract/lanes/lanes.js";
import type { Clock } from "../common/Clock.js";
import type { Deadline } from "../common/Deadline.js";
import type { RetryEvent } from "../common/RetryPolicy.js";
import type { EndpointInvocation } from "../endpoint/index.js";
import type { Outcome, OutcomeStatus, RecordOptions, RecordResult } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";
import type { ReadResponse } from "./readSystemOneResponse.js";
import type { ParsedItem } from "./types.js";

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
  /** The lane it asks in, which outcomes record (`lane`). Default none. */
  readonly lane?: Lane | undefined;
  /**
   * Answers one System One request body (built by `buildSystemOneBody`).
   *
   * @throws a `PermanentError` when the request can never be answered (the model's 4xx): the
   *   group's items get `rejected` outcomes. Anything else thrown gives the items back.
   */
  invoke(body: string, options: EndpointCallOptions): Promise<EndpointInvocation>;
}

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
  record(outcome: Outcome, options: RecordOptions): Promise<RecordResult>;
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
  /**
   * An item came with another payload than the outcome that stands for its id (recorded on it as a
   * conflict; the outcome stays). Default: not reported.
   */
  conflict?(policy: string, id: string, payloadSha256: string | undefined): void;
  /** An outcome replaced the one that stood (a supersede). Default: not reported. */
  superseded?(policy: string, id: string, replacedUpdatedAt: string): void;
  /** A supersede was asked for and refused (the outcome changed since it was read). Default: not reported. */
  supersedeRefused?(policy: string, id: string, reason: string): void;
  /** The call is over: `groups` groups were formed (one endpoint request each, at most). */
  flush(groups: number): void;
}

/**
 * Where the whole state of an item sent to review is kept for the reviewer (an outcome holds only
 * a preview), content-addressed by the sha256 of its text: writing the same state twice is
 * harmless, and a reader checks what it gets against the hash.
 */
export interface StateArchiveWriter {
  /**
   * Keeps `stateText` under `stateSha256` (its hex sha256).
   * @throws whatever kept it from writing: the group's items are given back, nothing is written.
   */
  put(stateSha256: string, stateText: string, options: { deadline: Deadline }): Promise<void>;
}

/** A group whose live outcomes were written, as the shadow step is told of it. */
export interface ShadowedGroup {
  policy: Policy;
  /** The state text sent to the endpoint (the group's). */
  stateText: string;
  /** The live request: its body, the endpoint's name and its answer, read. */
  live: { body: string; endpointName: string; read: ReadResponse };
  /** The items whose live outcome this call wrote, each with that outcome as written. */
  items: readonly { item: ParsedItem; outcome: Outcome }[];
  /** The call's last moment for writes: nothing of the shadow step runs past it. */
  finishBy: Deadline;
  /** The candidate's call started with the live one ({@link ShadowStep.begin}), when it was. */
  begun?: ShadowStart;
}

/** A group about to be asked live, as the shadow step is told of it to start its candidate's call. */
export interface ShadowGroupStart {
  policy: Policy;
  stateText: string;
  /** The group's items (the step asks only when its policy samples one of them). */
  items: readonly ParsedItem[];
  finishBy: Deadline;
}

/** A candidate call started beside the live one: handed back in {@link ShadowedGroup.begun}, or cancelled. */
export interface ShadowStart {
  /** The live group failed (nothing written): the candidate's call is aborted and nothing is recorded. */
  cancel(): void;
}

/**
 * The shadow step (`core/pipeline/shadow/ShadowRunner`): asks a policy's candidate about a
 * sampled share of the items the live pipeline decided, on its own budget, and keeps its answers
 * as shadow records. The core tells it of each group after the group's live outcomes are written.
 */
export interface ShadowStep {
  /**
   * Takes note of a group whose live outcomes are written, and returns at once: the step runs on
   * its own. Never throws, and nothing it does reaches the live results.
   */
  observe(group: ShadowedGroup): void;
  /**
   * Starts the candidate's call for a group about to be asked live, so that it runs beside the live
   * call rather than after it; `undefined` when there is nothing to ask (no section, none sampled,
   * a policy-only candidate). The caller hands it to {@link observe} or cancels it. Optional: a step
   * without it asks after the live outcomes are written.
   */
  begin?(group: ShadowGroupStart): ShadowStart | undefined;
  /**
   * Resolves once every step observed so far has ended (within its budget), or, given `graceMs`,
   * once that much time has passed: the steps whose candidate has not answered by then are
   * abandoned (their call aborted, their records kept with that failure) and the drain waits only
   * for those records' writes. Never rejects.
   */
  drain(options?: { graceMs?: number }): Promise<void>;
}

/** Everything the core reaches outside itself through. */
export interface PipelinePorts {
  endpoint: DecisionEndpoint;
  outcomes: OutcomeSink;
  telemetry: PipelineTelemetry;
  /** Default: the system clock. */
  clock?: Clock;
  /**
   * Where the whole state of an item going to review (fallback or audit) is kept when it is longer
   * than the outcome's preview. Default: none (the review sees the preview).
   */
  states?: StateArchiveWriter;
  /**
   * The shadow step, told of every group after its live outcomes are written (see
   * {@link ShadowStep}); the caller drains it. Default: none (no candidate is asked).
   */
  shadow?: ShadowStep;
}
