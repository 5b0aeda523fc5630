import type { SeededRandom } from "../../core/common/SeededRandom.js";
import type { EventQueue } from "../EventQueue.js";
import { DecideFunctionModel } from "../model/DecideFunctionModel.js";
import type { CallLane, EndpointModel } from "../model/EndpointModel.js";
import { EventSourceModel } from "../model/EventSourceModel.js";
import type { JobLedgerModel } from "../model/JobLedgerModel.js";
import { MessageQueue } from "../model/MessageQueue.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import type { LineTally } from "./LineTally.js";
import type { LaneSizing } from "./sizeLanes.js";

/** One lane as deployed: its SQS queue, its event source mapping and its decide function. */
export interface SimulatedLane {
  queue: MessageQueue;
  source: EventSourceModel;
  decide: DecideFunctionModel;
}

/** What a lane shares with the rest of the simulated pipeline. */
export interface LaneParts {
  events: EventQueue;
  random: SeededRandom;
  endpoint: EndpointModel;
  ledger: JobLedgerModel;
  tally: LineTally;
}

/**
 * Builds one lane (`name`: which queue it drains; `callLane`: the lane its endpoint calls carry,
 * "interactive" for every call without lanes): a queue, a decide function sized by `sizing` that
 * reports ended lines to the tally, and an event source (with the documented ramp) that invokes it.
 * The event source schedules its first ramp step, so the order lanes are built in is part of a run.
 */
export function buildLane(
  inputs: SimulationInputs,
  parts: LaneParts,
  name: "bulk" | "interactive",
  sizing: LaneSizing,
  callLane: CallLane,
): SimulatedLane {
  const { events, random, endpoint, ledger, tally } = parts;
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
      visibilityTimeoutSeconds: 6 * inputs.functionTimeoutSeconds + inputs.batchingWindowSeconds,
      maxReceiveCount: inputs.maxReceiveCount,
      endpointErrorRate: inputs.endpointErrorRate,
      invocationOverheadSeconds: inputs.invocationOverheadSeconds,
      coldStartSeconds: inputs.coldStartSeconds,
      linesPerRequest: name === "bulk" ? inputs.linesPerRequest : 1,
      serviceSeconds: (lines: number) =>
        inputs.requestSeconds ?? (lines * inputs.tokensPerLine) / inputs.prefillTokensPerSecond,
      serviceVariation: inputs.serviceVariation,
    },
    { endpoint, ledger, queue, onQueueChange: () => source?.poll() },
    { ended: (part, count, how, at) => tally.ended(part, count, how, at) },
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
  return { queue, source, decide };
}
