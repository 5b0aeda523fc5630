import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulatedPipeline } from "./buildPipeline.js";

/**
 * Interactive items: Poisson arrivals at `interactiveRate` items a second on the interactive lane
 * from the job's upload while it drains (none once its lines have all ended, none at rate 0), each
 * counted as sent in the tally. Draws the first gap from the seeded random now.
 */
export function scheduleInteractiveArrivals(pipeline: SimulatedPipeline, inputs: SimulationInputs): void {
  if (!(inputs.interactiveRate > 0)) return;
  const { events, random, tally, interactive, uploadAt } = pipeline;
  const arrive = () => {
    if (tally.jobDone(inputs.lines)) return;
    tally.interactiveSent += 1;
    interactive.queue.push({ count: 1, receives: 0, requeues: 0, sentAt: events.now, interactive: true });
    interactive.source.poll();
    events.after(random.exponential(inputs.interactiveRate), arrive);
  };
  events.after(uploadAt + random.exponential(inputs.interactiveRate), arrive);
}
