import type { Logger } from "@aws-lambda-powertools/logger";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Lane } from "../../contract/lanes/lanes.js";
import { DECIDE_METRIC_DIMENSIONS, DECIDE_METRICS } from "../../contract/metrics/decideMetrics.js";
import { SHADOW_METRICS } from "../../contract/metrics/shadowMetrics.js";
import { ConfigurationError } from "../../core/common/errors.js";
import type { RetryEvent } from "../../core/common/RetryPolicy.js";
import type { EndpointInvocation } from "../../core/endpoint/index.js";
import type { RequeuedRecord } from "../../core/flow/BusyRecordRequeuer.js";
import type { OutcomeStatus } from "../../core/outcomes/index.js";
import {
  CandidateTimeoutError,
  type LiveAgreement,
  type PipelineTelemetry,
  type ShadowTelemetry,
} from "../../core/pipeline/index.js";

/**
 * The decide function's logs and metrics (Powertools): the pipeline core's telemetry port, and the
 * batch's failed records. Outcome counts are kept per batch and emitted by {@link flush} as one EMF
 * document per (policy, status), since dimensions differ.
 */
export class DecideTelemetry implements PipelineTelemetry, ShadowTelemetry {
  readonly #counts = new Map<string, { policy: string; status: OutcomeStatus; count: number }>();

  /**
   * @param lane the lane the function drains (`LANE`): the `lane` dimension of `SendToOutcome`.
   *   Default `interactive`, `LANE`'s own default.
   */
  constructor(
    readonly logger: Logger,
    readonly metrics: Metrics,
    readonly lane: Lane = "interactive",
  ) {}

  /** An endpoint request for a group succeeded. */
  requestAnswered(policy: string, groupSize: number, invocation: EndpointInvocation): void {
    this.metrics.addMetric(DECIDE_METRICS.endpointLatency, MetricUnit.Milliseconds, invocation.latencyMs);
    this.metrics.addMetric(DECIDE_METRICS.groupSize, MetricUnit.Count, groupSize);
    this.logger.debug("endpoint answered", {
      policy,
      groupSize,
      requestId: invocation.requestId,
      attempts: invocation.attempts,
      latencyMs: invocation.latencyMs,
    });
  }

  /** A transient failure is about to be retried. */
  retrying(what: string, event: RetryEvent): void {
    this.metrics.addMetric(DECIDE_METRICS.retries, MetricUnit.Count, 1);
    this.logger.info("retrying", {
      what,
      attempt: event.attempt,
      delayMs: event.delayMs,
      error: event.error.name,
      reason: event.error.message,
    });
  }

  /** An outcome was written. */
  outcomeWritten(policy: string, status: OutcomeStatus): void {
    const key = `${policy}\u0000${status}`;
    const entry = this.#counts.get(key) ?? { policy, status, count: 0 };
    entry.count += 1;
    this.#counts.set(key, entry);
  }

  /**
   * An outcome was written `milliseconds` after its item's message was sent (SQS `SentTimestamp`):
   * one `SendToOutcome` value with the `lane` dimension, in its own EMF document (the batch's
   * other metrics have no lane). A negative time (clocks apart) counts as 0.
   */
  sendToOutcome(milliseconds: number): void {
    const metric = this.metrics.singleMetric();
    metric.addDimension(DECIDE_METRIC_DIMENSIONS.lane, this.lane);
    metric.addMetric(DECIDE_METRICS.sendToOutcome, MetricUnit.Milliseconds, Math.max(0, milliseconds));
  }

  /** An outcome already stood for this item. */
  duplicate(policy: string, id: string): void {
    const metric = this.metrics.singleMetric();
    metric.addDimension("policy", policy);
    metric.addMetric(DECIDE_METRICS.duplicates, MetricUnit.Count, 1);
    this.logger.info("outcome already recorded", { policy, id });
  }

  /** An item came with another payload than the outcome that stands for its id: a conflict, recorded on it. */
  conflict(policy: string, id: string, payloadSha256: string | undefined): void {
    const metric = this.metrics.singleMetric();
    metric.addDimension("policy", policy);
    metric.addMetric(DECIDE_METRICS.payloadConflicts, MetricUnit.Count, 1);
    this.logger.warn("a different payload under an existing id: recorded as a conflict, the outcome stays", {
      policy,
      id,
      payloadSha256,
    });
  }

  /** An outcome replaced the one that stood (a redecide or a resubmission with the supersede marker). */
  superseded(policy: string, id: string, replacedUpdatedAt: string): void {
    const metric = this.metrics.singleMetric();
    metric.addDimension("policy", policy);
    metric.addMetric(DECIDE_METRICS.superseded, MetricUnit.Count, 1);
    this.logger.info("outcome superseded, the old one kept in its history", {
      policy,
      id,
      replacedUpdatedAt,
    });
  }

  /** A supersede was asked for and refused. */
  supersedeRefused(policy: string, id: string, reason: string): void {
    this.logger.warn("supersede refused, the outcome that stands stays", { policy, id, reason });
  }

  /**
   * A record goes back to SQS: logged with its message id and, when it could be read, its item's
   * policy and id. A {@link ConfigurationError} (the endpoint not found or not allowed, the table
   * missing, the policy not deployed) is logged at error level with the resource and what to fix,
   * and counted in `ConfigurationErrors` (an alarm watches it); any other failure at warn level.
   */
  recordFailed(messageId: string, reason: unknown, item?: { policy: string; id: string }): void {
    this.metrics.addMetric(DECIDE_METRICS.failedRecords, MetricUnit.Count, 1);
    const fields = {
      messageId,
      ...(item ? { policy: item.policy, itemId: item.id } : {}),
      error: reason instanceof Error ? reason.name : typeof reason,
      reason: reason instanceof Error ? reason.message : String(reason),
    };
    if (reason instanceof ConfigurationError) {
      this.metrics.addMetric(DECIDE_METRICS.configurationErrors, MetricUnit.Count, 1);
      this.logger.error(
        `configuration error: the ${reason.part} ${JSON.stringify(reason.resource)} is not usable as configured; the record goes back to the queue, nothing was written. To fix: ${reason.remedy}`,
        { ...fields, part: reason.part, resource: reason.resource, fix: reason.remedy },
      );
      return;
    }
    this.logger.warn("record failed, SQS will redeliver it", fields);
  }

  /** The failure record of a record given back could not be written (the record goes back all the same). */
  failureRecordNotWritten(messageId: string, reason: unknown): void {
    this.logger.warn("failure record not written", {
      messageId,
      error: reason instanceof Error ? reason.name : typeof reason,
      reason: reason instanceof Error ? reason.message : String(reason),
    });
  }

  /** A record re-queued for capacity as a delayed copy: its item waits in the copy, its receive count is kept for real failures. */
  recordRequeued(messageId: string, copy: RequeuedRecord, reason: unknown): void {
    this.metrics.addMetric(DECIDE_METRICS.requeuedRecords, MetricUnit.Count, 1);
    this.logger.warn("record re-queued: the pipeline is busy", {
      messageId,
      requeuedAs: copy.messageId,
      delaySeconds: copy.delaySeconds,
      requeues: copy.requeues,
      firstMessageId: copy.firstMessageId,
      error: reason instanceof Error ? reason.name : typeof reason,
    });
  }

  /** The candidate endpoint is asked about a group: one `ShadowCalls` of the policy. */
  candidateCalled(policy: string, _candidate: string): void {
    this.#shadowMetric(policy, SHADOW_METRICS.calls, MetricUnit.Count, 1);
  }

  /**
   * A shadow record was written: the candidate's result, or (`failure` set) why it gave none. The
   * policy's shadow metrics: `ShadowRecords` 1, `ShadowFailures` and `ShadowTimeouts` 0 or 1 (their
   * Average is a rate) and, for a result, `ShadowAgreement` (percent of the questions both answered
   * that agree; none when no question was compared) and `ShadowStatusChanges` 0 or 1.
   */
  shadowRecorded(
    policy: string,
    id: string,
    candidate: string,
    failure: unknown,
    versusLive: LiveAgreement | undefined,
  ): void {
    this.#shadowMetric(policy, SHADOW_METRICS.records, MetricUnit.Count, 1);
    this.#shadowMetric(policy, SHADOW_METRICS.failures, MetricUnit.Count, failure === undefined ? 0 : 1);
    const timedOut = failure instanceof CandidateTimeoutError ? 1 : 0;
    this.#shadowMetric(policy, SHADOW_METRICS.timeouts, MetricUnit.Count, timedOut);
    if (failure === undefined && versusLive !== undefined) {
      if (versusLive.questions > 0) {
        const percent = (100 * versusLive.agreed) / versusLive.questions;
        this.#shadowMetric(policy, SHADOW_METRICS.agreement, MetricUnit.Percent, percent);
      }
      const changed = versusLive.statusChanged ? 1 : 0;
      this.#shadowMetric(policy, SHADOW_METRICS.statusChanges, MetricUnit.Count, changed);
    }
    if (failure === undefined) {
      this.logger.debug("shadow record written", { policy, itemId: id, candidate });
      return;
    }
    this.logger.info("shadow record written: the candidate gave no result, the live outcome stands", {
      policy,
      itemId: id,
      candidate,
      error: failure instanceof Error ? failure.name : typeof failure,
      reason: failure instanceof Error ? failure.message : String(failure),
    });
  }

  /** A sampled item's shadow record was not written: the live outcome stands. */
  shadowNotWritten(policy: string, id: string, candidate: string, reason: unknown): void {
    this.#shadowMetric(policy, SHADOW_METRICS.notWritten, MetricUnit.Count, 1);
    this.logger.warn("shadow record not written, the live outcome stands", {
      policy,
      itemId: id,
      candidate,
      error: reason instanceof Error ? reason.name : typeof reason,
      reason: reason instanceof Error ? reason.message : String(reason),
    });
  }

  /**
   * One shadow metric with the `policy` dimension, published at once. A single metric of its own
   * each time: Powertools publishes a single metric on each `addMetric` and clears its dimensions
   * with it, so a second value on the same one would lose `policy`.
   */
  #shadowMetric(
    policy: string,
    name: string,
    unit: (typeof MetricUnit)[keyof typeof MetricUnit],
    value: number,
  ): void {
    const metric = this.metrics.singleMetric();
    metric.addDimension(SHADOW_METRICS.policyDimension, policy);
    metric.addMetric(name, unit, value);
  }

  /** Emits the batch's per-(policy, status) counts and the request count, and resets them. */
  flush(requests: number): void {
    this.metrics.addMetric(DECIDE_METRICS.requests, MetricUnit.Count, requests);
    for (const { policy, status, count } of this.#counts.values()) {
      const metric = this.metrics.singleMetric();
      metric.addDimensions({ policy, status });
      metric.addMetric(DECIDE_METRICS.decisions, MetricUnit.Count, count);
    }
    this.#counts.clear();
  }
}
