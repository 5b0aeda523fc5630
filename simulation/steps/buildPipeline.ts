import { SeededRandom } from "../../core/common/SeededRandom.js";
import { EventQueue } from "../EventQueue.js";
import { EndpointModel } from "../model/EndpointModel.js";
import { JobLedgerModel } from "../model/JobLedgerModel.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import { buildLane, type SimulatedLane } from "./buildLane.js";
import { LineTally } from "./LineTally.js";
import { type LaneSizings, sizeLanes } from "./sizeLanes.js";

/** The models of one run, wired together, before any event has run. */
export interface SimulatedPipeline {
  events: EventQueue;
  random: SeededRandom;
  endpoint: EndpointModel;
  ledger: JobLedgerModel;
  tally: LineTally;
  sizing: LaneSizings;
  bulk: SimulatedLane;
  /** The interactive lane; the bulk lane itself without lanes (`interactive === bulk`). */
  interactive: SimulatedLane;
}

/**
 * Builds the models of one run from its inputs: the event agenda and the seeded random, the
 * endpoint at its minimum instances, the job ledger, the tally, and the lanes sized as the CDK app
 * deploys them (the bulk lane first, then the interactive one; without lanes one lane takes every
 * item and the adapter sees no lane, so every call is served first come, first served).
 */
export function buildPipeline(inputs: SimulationInputs): SimulatedPipeline {
  const events = new EventQueue();
  const random = new SeededRandom(inputs.seed);
  const sizing = sizeLanes(inputs);
  const endpoint = new EndpointModel(events, {
    initialInstances: inputs.minInstances,
    requestsPerInstance: inputs.requestsPerInstance,
    interactiveReserve: inputs.interactiveReserve,
    startSeconds: inputs.instanceStartSeconds,
    stopSeconds: inputs.instanceStopSeconds,
  });
  const ledger = new JobLedgerModel(inputs.ledgerLinesPerSecond);
  const tally = new LineTally();
  const parts = { events, random, endpoint, ledger, tally };
  const bulk = buildLane(inputs, parts, "bulk", sizing.bulk, inputs.lanes ? "bulk" : "interactive");
  const interactive = inputs.lanes
    ? buildLane(inputs, parts, "interactive", sizing.interactive, "interactive")
    : bulk;
  return { events, random, endpoint, ledger, tally, sizing, bulk, interactive };
}
