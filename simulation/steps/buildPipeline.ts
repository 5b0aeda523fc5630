import { SeededRandom } from "../../core/common/SeededRandom.js";
import { EventQueue } from "../EventQueue.js";
import { EndpointModel } from "../model/EndpointModel.js";
import { JobLedgerModel } from "../model/JobLedgerModel.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import { buildLane, type SimulatedLane } from "./buildLane.js";
import { LineTally } from "./LineTally.js";
import { type LaneSizings, sizeLanes } from "./sizeLanes.js";

/** The capacity each lane's calls go to: one endpoint for both (`shared`), or a pool per lane. */
export interface LanePools {
  interactive: EndpointModel;
  bulk: EndpointModel;
}

/** The instances of every pool together: what is paid and what serves, at most. */
export interface Fleet {
  /** Each pool once (one with `shared`). */
  pools: readonly EndpointModel[];
  /** Peak instances InService at once, over all pools. */
  peakInService: number;
}

/** The models of one run, wired together, before any event has run. */
export interface SimulatedPipeline {
  events: EventQueue;
  random: SeededRandom;
  /** The pool each lane's calls go to (both the same endpoint with `shared`). */
  pools: LanePools;
  fleet: Fleet;
  ledger: JobLedgerModel;
  tally: LineTally;
  sizing: LaneSizings;
  bulk: SimulatedLane;
  /** The interactive lane; the bulk lane itself without lanes (`interactive === bulk`). */
  interactive: SimulatedLane;
  /** When the job is uploaded (seconds): after `--idle-hours`. */
  uploadAt: number;
}

/**
 * Builds the models of one run from its inputs: the event agenda and the seeded random, the
 * endpoint at its minimum instances (with `lanes-from-zero` a pool per lane: interactive copies at
 * `minInstances`, bulk copies at 0, each admitting only its lane), the job ledger, the tally, and
 * the lanes sized as the CDK app deploys them (the bulk lane first, then the interactive one;
 * without lanes one lane takes every item and the adapter sees no lane, so every call is served
 * first come, first served).
 */
export function buildPipeline(inputs: SimulationInputs): SimulatedPipeline {
  const events = new EventQueue();
  const random = new SeededRandom(inputs.seed);
  const sizing = sizeLanes(inputs);
  const fleet: Fleet = { pools: [], peakInService: 0 };
  const onInServiceChange = () => {
    let inService = 0;
    for (const pool of fleet.pools) inService += pool.inService();
    fleet.peakInService = Math.max(fleet.peakInService, inService);
  };
  const pool = (initialInstances: number) =>
    new EndpointModel(events, {
      initialInstances,
      requestsPerInstance: inputs.requestsPerInstance,
      interactiveReserve: inputs.interactiveReserve,
      startSeconds: inputs.instanceStartSeconds,
      stopSeconds: inputs.instanceStopSeconds,
      onInServiceChange,
    });
  const fromZero = inputs.layout === "lanes-from-zero";
  const shared = fromZero ? undefined : pool(inputs.minInstances);
  const pools: LanePools = {
    interactive: shared ?? pool(inputs.minInstances),
    bulk: shared ?? pool(0),
  };
  fleet.pools = shared === undefined ? [pools.interactive, pools.bulk] : [shared];
  onInServiceChange();
  const ledger = new JobLedgerModel(inputs.ledgerLinesPerSecond);
  const tally = new LineTally();
  const parts = { events, random, ledger, tally };
  const bulk = buildLane(
    inputs,
    { ...parts, endpoint: pools.bulk },
    "bulk",
    sizing.bulk,
    inputs.lanes ? "bulk" : "interactive",
  );
  const interactive = inputs.lanes
    ? buildLane(
        inputs,
        { ...parts, endpoint: pools.interactive },
        "interactive",
        sizing.interactive,
        "interactive",
      )
    : bulk;
  return {
    events,
    random,
    pools,
    fleet,
    ledger,
    tally,
    sizing,
    bulk,
    interactive,
    uploadAt: inputs.idleHours * 3600,
  };
}
