import type { TimelinePoint } from "../SimulationResult.js";
import type { SimulatedPipeline } from "./buildPipeline.js";

/** Points kept at most before the timeline is thinned. */
const MAX_POINTS = 2000;

/**
 * The timeline: a point every `step` simulated seconds (5 at first), thinned to every other point
 * and the step doubled whenever it grows past 2,000 points.
 */
export class TimelineSampler {
  /** The points so far, oldest first. */
  readonly points: TimelinePoint[] = [];
  readonly #pipeline: SimulatedPipeline;
  #step = 5;

  /** A sampler of `pipeline`'s instances (all pools) and bulk lane; takes no point until {@link sample}. */
  constructor(pipeline: SimulatedPipeline) {
    this.#pipeline = pipeline;
  }

  /** Takes a point now and schedules the next one `step` seconds later. */
  sample(): void {
    const { events, fleet, bulk, uploadAt } = this.#pipeline;
    const timeline = this.points;
    const sum = (of: (pool: (typeof fleet.pools)[number]) => number) =>
      fleet.pools.reduce((total, pool) => total + of(pool), 0);
    timeline.push({
      t: events.now - uploadAt,
      in_service: sum((pool) => pool.inService()),
      billed: sum((pool) => pool.billed()),
      busy: sum((pool) => pool.busy()),
      backlog: bulk.queue.visible(),
      calls: sum((pool) => pool.admitted()),
      max_concurrency: bulk.source.maxConcurrency(),
    });
    if (timeline.length > MAX_POINTS) {
      const kept = timeline.filter((_, i) => i % 2 === 0);
      timeline.length = 0;
      timeline.push(...kept);
      this.#step *= 2;
    }
    events.after(this.#step, () => this.sample());
  }
}
