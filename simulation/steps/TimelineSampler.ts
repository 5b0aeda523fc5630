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

  /** A sampler of `pipeline`'s endpoint and bulk lane; takes no point until {@link sample}. */
  constructor(pipeline: SimulatedPipeline) {
    this.#pipeline = pipeline;
  }

  /** Takes a point now and schedules the next one `step` seconds later. */
  sample(): void {
    const { events, endpoint, bulk } = this.#pipeline;
    const timeline = this.points;
    timeline.push({
      t: events.now,
      in_service: endpoint.inService(),
      billed: endpoint.billed(),
      busy: endpoint.busy(),
      backlog: bulk.queue.visible(),
      calls: endpoint.admitted(),
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
