import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulatedPipeline } from "./buildPipeline.js";

/**
 * Ingest: sends the job's lines to the bulk queue at `ingestLinesPerSecond` (a part each simulated
 * second, whole lines only, the fractions carried over), or all at once at time 0 with rate 0.
 * Runs the first second now and schedules the rest.
 */
export function scheduleIngest(pipeline: SimulatedPipeline, inputs: SimulationInputs): void {
  const { events, bulk } = pipeline;
  if (inputs.ingestLinesPerSecond === 0) {
    bulk.queue.push({ count: inputs.lines, receives: 0, requeues: 0, sentAt: 0, interactive: false });
    bulk.source.poll();
    return;
  }
  let sent = 0;
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
