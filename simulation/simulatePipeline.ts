import { planLaneConcurrency } from "../functions/capacityController/planLaneConcurrency.js";
import { DecideCapacityError, deriveLaneCapacity } from "../infra/capacity/deriveDecideCapacity.js";
import { AWS_CONSTANTS } from "./awsConstants.js";
import { EventQueue } from "./EventQueue.js";
import { DecideFunctionModel, type LineEnd } from "./model/DecideFunctionModel.js";
import { EndpointModel } from "./model/EndpointModel.js";
import { EventSourceModel } from "./model/EventSourceModel.js";
import { JobLedgerModel } from "./model/JobLedgerModel.js";
import { type MessagePart, MessageQueue } from "./model/MessageQueue.js";
import { TargetTrackingModel } from "./model/TargetTrackingModel.js";
import { SeededRandom } from "./SeededRandom.js";
import { resolveSimulationInputs, type SimulationInputs } from "./SimulationInputs.js";
import type { SimulationResult, TimelinePoint } from "./SimulationResult.js";

/** Sizing of one lane's decide function: invocations at once × calls per invocation. */
interface LaneSizing {
  maxConcurrency: number;
  groupsPerInvocation: number;
}

const { maximumConcurrencyMin } = AWS_CONSTANTS;

/** The endpoint's one production variant, as the CDK app names it (the name only keys the controller's table). */
const VARIANT = "AllTraffic";

/** `UpdateEventSourceMapping` only when the value changes, as the controller does. */
function setConcurrency(source: EventSourceModel, value: number): void {
  if (value !== source.maxConcurrency()) source.setMaxConcurrency(value);
}

/**
 * Simulates one bulk job (and interactive items beside it) through the deployed pipeline — ingest,
 * the SQS queues and event sources, the decide functions with their flow control, the endpoint's
 * instances and autoscaling, the job ledger — as a discrete-event model on simulated time, seeded:
 * the same inputs give the same result, and nothing reads a clock. See docs/simulation.md.
 *
 * @throws {SimulationInputError} for inputs out of range (see {@link resolveSimulationInputs}).
 * @example
 * const result = simulatePipeline({ lines: 100_000, capacity: "follow", maxInstances: 10 });
 * result.job_hours;
 */
export function simulatePipeline(partial: Partial<SimulationInputs> = {}): SimulationResult {
  const inputs = resolveSimulationInputs(partial);
  const events = new EventQueue();
  const random = new SeededRandom(inputs.seed);
  const share = inputs.requestsPerInstance - inputs.interactiveReserve;
  const serviceSeconds = (lines: number) =>
    inputs.requestSeconds ?? (lines * inputs.tokensPerLine) / inputs.prefillTokensPerSecond;

  const bulkSizing = sizeBulkLane(inputs, share);
  const interactiveSizing = sizeLane(
    inputs.minInstances,
    Math.max(2, inputs.interactiveReserve),
    inputs.maxConcurrentGroups,
  );

  const endpoint = new EndpointModel(events, {
    initialInstances: inputs.minInstances,
    requestsPerInstance: inputs.requestsPerInstance,
    interactiveReserve: inputs.interactiveReserve,
    startSeconds: inputs.instanceStartSeconds,
    stopSeconds: inputs.instanceStopSeconds,
  });
  const ledger = new JobLedgerModel(inputs.ledgerLinesPerSecond);

  let bulkEnded = 0;
  let decided = 0;
  let deadLettered = 0;
  let firstLineAt: number | undefined;
  let lastLineAt = 0;
  let interactiveSent = 0;
  let interactiveEnded = 0;
  const interactiveLatencies: number[] = [];
  const ended = (part: MessagePart, count: number, how: LineEnd, at: number) => {
    if (part.interactive) {
      interactiveEnded += count;
      if (how === "decided") interactiveLatencies.push(at - part.sentAt);
      return;
    }
    bulkEnded += count;
    if (how === "decided") decided += count;
    else deadLettered += count;
    firstLineAt ??= at;
    lastLineAt = at;
  };

  const visibilityTimeoutSeconds = 6 * inputs.functionTimeoutSeconds + inputs.batchingWindowSeconds;
  const lane = (
    name: "bulk" | "interactive",
    sizing: LaneSizing,
    callLane: "bulk" | "interactive",
  ): { source: EventSourceModel; decide: DecideFunctionModel; queue: MessageQueue } => {
    const queue = new MessageQueue();
    let source: EventSourceModel | undefined;
    const decide = new DecideFunctionModel(
      events,
      random,
      {
        lane: callLane,
        groupsPerInvocation: sizing.groupsPerInvocation,
        timeoutSeconds: inputs.functionTimeoutSeconds,
        deadlineMarginSeconds: inputs.deadlineMarginSeconds,
        maxAttempts: inputs.maxAttempts,
        retryAfterSeconds: inputs.retryAfterSeconds,
        visibilityTimeoutSeconds,
        maxReceiveCount: inputs.maxReceiveCount,
        endpointErrorRate: inputs.endpointErrorRate,
        invocationOverheadSeconds: inputs.invocationOverheadSeconds,
        coldStartSeconds: inputs.coldStartSeconds,
        linesPerRequest: name === "bulk" ? inputs.linesPerRequest : 1,
        serviceSeconds,
        serviceVariation: inputs.serviceVariation,
      },
      { endpoint, ledger, queue, onQueueChange: () => source?.poll() },
      { ended },
    );
    source = new EventSourceModel(
      events,
      queue,
      {
        batchSize: inputs.batchSize,
        batchingWindowSeconds: inputs.batchingWindowSeconds,
        receiveSeconds: inputs.receiveSeconds,
        maxConcurrency: sizing.maxConcurrency,
        ramp: true,
      },
      (batch, done) => decide.invoke(batch, done),
    );
    return { source, decide, queue };
  };

  // Without lanes the adapter sees no lane: every call is served first come, first served.
  const bulk = lane("bulk", bulkSizing, inputs.lanes ? "bulk" : "interactive");
  const interactive = inputs.lanes ? lane("interactive", interactiveSizing, "interactive") : bulk;

  // Ingest: the job's lines arrive at the ingest rate (all at once with rate 0).
  let sent = 0;
  if (inputs.ingestLinesPerSecond === 0) {
    bulk.queue.push({ count: inputs.lines, receives: 0, requeues: 0, sentAt: 0, interactive: false });
    sent = inputs.lines;
    bulk.source.poll();
  } else {
    let owed = 0;
    const ingestTick = () => {
      owed += inputs.ingestLinesPerSecond;
      const n = Math.min(Math.floor(owed), inputs.lines - sent);
      owed -= n;
      if (n > 0) {
        bulk.queue.push({ count: n, receives: 0, requeues: 0, sentAt: events.now, interactive: false });
        sent += n;
        bulk.source.poll();
      }
      if (sent < inputs.lines) events.after(1, ingestTick);
    };
    ingestTick();
  }

  const jobDone = () => bulkEnded >= inputs.lines;

  // Interactive items: Poisson arrivals while the job drains.
  if (inputs.interactiveRate > 0) {
    const arrive = () => {
      if (jobDone()) return;
      interactiveSent += 1;
      interactive.queue.push({ count: 1, receives: 0, requeues: 0, sentAt: events.now, interactive: true });
      interactive.source.poll();
      events.after(random.exponential(inputs.interactiveRate), arrive);
    };
    events.after(random.exponential(inputs.interactiveRate), arrive);
  }

  // Autoscaling: on ConcurrentRequestsPerModel (10-second points) in both modes; in follow mode
  // also on BacklogPerInstance (a point a minute, published by the controller), and the controller.
  const follow = inputs.capacity === "follow";
  const policy = (target: number, periodSeconds: number) =>
    new TargetTrackingModel({
      target,
      minCapacity: inputs.minInstances,
      maxCapacity: inputs.maxInstances,
      periodSeconds,
      scaleOutCooldownSeconds: inputs.scaleOutCooldownSeconds,
      scaleInCooldownSeconds: inputs.scaleInCooldownSeconds,
    });
  const concurrencyPolicy = policy(
    inputs.targetConcurrentRequests,
    AWS_CONSTANTS.highResolutionMetricPeriodSeconds.value,
  );
  const backlogPolicy = follow ? policy(inputs.backlogPerInstanceTarget, 60) : undefined;
  let lastAdmittedSeconds = 0;
  const concurrencyTick = () => {
    const inService = endpoint.inService();
    const admittedSeconds = endpoint.admittedSeconds();
    const metric = (admittedSeconds - lastAdmittedSeconds) / 10 / Math.max(1, inService);
    lastAdmittedSeconds = admittedSeconds;
    const desired = concurrencyPolicy.observe(
      events.now,
      metric,
      inService,
      endpoint.desired(),
      backlogPolicy?.wanted ?? 0,
    );
    if (desired !== undefined) endpoint.setDesired(desired);
    events.after(10, concurrencyTick);
  };
  events.after(10, concurrencyTick);

  // The capacity controller, once a minute: the endpoint as DescribeEndpoint gives it, each lane's
  // MaximumConcurrency from the CDK app's own rule, and the BacklogPerInstance data point.
  const laneLimits = {
    interactive: {
      groupsPerInvocation: interactiveSizing.groupsPerInvocation,
      minConcurrency: interactiveSizing.maxConcurrency,
    },
    bulk: { groupsPerInvocation: bulkSizing.groupsPerInvocation, minConcurrency: bulkSizing.maxConcurrency },
  };
  const controllerTick = () => {
    const inService = endpoint.inService();
    const plan = planLaneConcurrency({
      endpoint: {
        status: endpoint.status(),
        variants: [{ name: VARIANT, current: inService, desired: endpoint.desired() }],
      },
      requestsPerInstance: { [VARIANT]: inputs.requestsPerInstance },
      interactiveReserve: inputs.interactiveReserve,
      lanes: laneLimits,
    });
    if (plan.basis === "minimum") controllerMinimumChecks += 1;
    if (inputs.maxConcurrency === undefined) {
      setConcurrency(bulk.source, plan.concurrency.bulk);
      if (interactive !== bulk) setConcurrency(interactive.source, plan.concurrency.interactive);
    }
    const metric = bulk.queue.visible() / Math.max(1, inService);
    const desired = backlogPolicy?.observe(
      events.now,
      metric,
      inService,
      endpoint.desired(),
      concurrencyPolicy.wanted,
    );
    if (desired !== undefined) endpoint.setDesired(desired);
    events.after(60, controllerTick);
  };
  let controllerMinimumChecks = 0;
  if (follow) events.after(60, controllerTick);

  // The timeline: a point every `step` seconds, thinned (and the step doubled) past 2,000 points.
  const timeline: TimelinePoint[] = [];
  let step = 5;
  const sample = () => {
    timeline.push({
      t: events.now,
      in_service: endpoint.inService(),
      billed: endpoint.billed(),
      busy: endpoint.busy(),
      backlog: bulk.queue.visible(),
      calls: endpoint.admitted(),
      max_concurrency: bulk.source.maxConcurrency(),
    });
    if (timeline.length > 2000) {
      const kept = timeline.filter((_, i) => i % 2 === 0);
      timeline.length = 0;
      timeline.push(...kept);
      step *= 2;
    }
    events.after(step, sample);
  };
  sample();

  let jobEndedAt: number | undefined;
  let backToMinAt: number | undefined;
  const limit = inputs.maxHours * 3600;
  const stop = () => {
    if (!jobDone() || interactiveEnded < interactiveSent) return false;
    jobEndedAt ??= events.now;
    if (endpoint.billed() <= inputs.minInstances && endpoint.desired() <= inputs.minInstances) {
      backToMinAt ??= events.now;
      return true;
    }
    // The endpoint may stay above its minimum (no scale-in policy reaches it): stop 6 h after.
    return events.now - jobEndedAt > 6 * 3600;
  };
  const ran = events.runUntil(limit, stop);
  const finished = jobDone();
  const end = events.now;
  if (!finished) jobEndedAt = undefined;
  sample();

  const calls = bulk.decide.calls + (interactive === bulk ? 0 : interactive.decide.calls);
  const refused = endpoint.refusedCalls;
  const sorted = [...interactiveLatencies].sort((a, b) => a - b);
  const jobSeconds = (jobEndedAt ?? end) - 0;
  const instanceHours = endpoint.billedSeconds() / 3600;
  return {
    capacity: inputs.capacity,
    lanes: inputs.lanes,
    lines: inputs.lines,
    finished,
    job_hours: round(jobSeconds / 3600, 4),
    instance_hours: round(instanceHours, 3),
    cost: inputs.instancePrice === undefined ? null : round(instanceHours * inputs.instancePrice, 2),
    busy_instance_hours: round(endpoint.busySeconds() / 3600, 3),
    peak_busy_instances: endpoint.peakBusy,
    peak_in_service_instances: endpoint.peakInService,
    peak_calls_in_flight: endpoint.peakAdmitted,
    refused_share: calls === 0 ? 0 : round(refused / calls, 4),
    endpoint_calls: calls,
    refused_calls: refused,
    retries: bulk.decide.retries + (interactive === bulk ? 0 : interactive.decide.retries),
    requeued_lines: bulk.decide.requeuedLines + (interactive === bulk ? 0 : interactive.decide.requeuedLines),
    decided_lines: decided,
    dead_lettered_lines: deadLettered,
    lines_per_s:
      firstLineAt === undefined || lastLineAt <= firstLineAt ? 0 : round(bulkEnded / lastLineAt, 2),
    first_line_s: round(firstLineAt ?? Number.NaN, 2),
    interactive: {
      items: interactiveSent,
      p50_s: quantile(sorted, 0.5),
      p95_s: quantile(sorted, 0.95),
      max_s: sorted.length === 0 ? null : round(sorted[sorted.length - 1] as number, 2),
      refused_calls:
        endpoint.refusedByLane.interactive - (inputs.lanes ? 0 : endpoint.refusedByLane.interactive),
    },
    sizing: {
      max_concurrency: bulkSizing.maxConcurrency,
      groups_per_invocation: bulkSizing.groupsPerInvocation,
      calls_in_flight: bulkSizing.maxConcurrency * bulkSizing.groupsPerInvocation,
    },
    scaling: {
      scale_outs: concurrencyPolicy.scaleOuts + (backlogPolicy?.scaleOuts ?? 0),
      scale_ins: concurrencyPolicy.scaleIns + (backlogPolicy?.scaleIns ?? 0),
      controller_minimum_checks: controllerMinimumChecks,
      back_to_min_hours: backToMinAt === undefined ? null : round(backToMinAt / 3600, 3),
    },
    events: ran,
    timeline,
  };
}

/**
 * The bulk lane's deployed sizing: `deriveDecideCapacity` for what the bulk share of the minimum
 * capacity admits (the whole capacity without lanes). In follow mode the controller then changes
 * `MaximumConcurrency` each minute, never below this value (its `minConcurrency`).
 * An explicit `--max-concurrency` wins (a local poller may run fewer than 2).
 */
function sizeBulkLane(inputs: SimulationInputs, share: number): LaneSizing {
  const sized = sizeLane(inputs.minInstances, share, inputs.maxConcurrentGroups);
  if (inputs.maxConcurrency !== undefined) {
    return { maxConcurrency: inputs.maxConcurrency, groupsPerInvocation: sized.groupsPerInvocation };
  }
  return sized;
}

/**
 * `deriveLaneCapacity` (the CDK app's own formula for one lane's share) for `perInstance` places per instance; where
 * it refuses (fewer than the event source's 2 invocations fit), the event source's floor: 2
 * invocations of 1 call, which the flow control then holds to what the endpoint admits.
 */
function sizeLane(minInstances: number, perInstance: number, configured: number): LaneSizing {
  try {
    const derived = deriveLaneCapacity(minInstances * perInstance, configured);
    return { maxConcurrency: derived.maxConcurrency, groupsPerInvocation: derived.groupsPerInvocation };
  } catch (error) {
    if (!(error instanceof DecideCapacityError)) throw error;
    return { maxConcurrency: maximumConcurrencyMin.value, groupsPerInvocation: 1 };
  }
}

function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const at = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return round(sorted[Math.max(0, at)] as number, 2);
}

function round(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
