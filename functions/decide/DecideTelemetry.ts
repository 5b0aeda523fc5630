import type { Logger } from "@aws-lambda-powertools/logger";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Lane } from "../../contract/lanes/lanes.js";
import { DECIDE_METRIC_DIMENSIONS, DECIDE_METRICS } from "../../contract/metrics/decideMetrics.js";
import { ConfigurationError } from "../common/errors.js";
import type { RetryEvent } from "../common/RetryPolicy.js";
import type { EndpointInvocation } from "../endpoint/index.js";
import type { RequeuedRecord } from "../flow/BusyRecordRequeuer.js";
import type { OutcomeStatus } from "../outcomes/index.js";
import type { PipelineTelemetry, ShadowTelemetry } from "../pipeline/index.js";

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

  /** A shadow record was written: the candidate's result, or (`failure` set) why it gave none. */
  shadowRecorded(policy: string, id: string, candidate: string, failure: unknown): void {
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
    this.logger.warn("shadow record not written, the live outcome stands", {
      policy,
      itemId: id,
      candidate,
      error: reason instanceof Error ? reason.name : typeof reason,
      reason: reason instanceof Error ? reason.message : String(reason),
    });
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
