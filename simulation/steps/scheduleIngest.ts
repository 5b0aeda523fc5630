import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulatedPipeline } from "./buildPipeline.js";

/**
 * Ingest: from the upload (after `--idle-hours`), sends the job's lines to the bulk queue at
 * `ingestLinesPerSecond` (a part each simulated second, whole lines only, the fractions carried
 * over), or all at once with rate 0. Runs the first second at the upload (an event even for a
 * job of 0 lines, so that the run sees the upload) and schedules the rest.
 */
export function scheduleIngest(pipeline: SimulatedPipeline, inputs: SimulationInputs): void {
  const { events, uploadAt } = pipeline;
  if (uploadAt > 0) {
    events.after(uploadAt, () => startIngest(pipeline, inputs));
    return;
  }
  startIngest(pipeline, inputs);
}

function startIngest(pipeline: SimulatedPipeline, inputs: SimulationInputs): void {
  const { events, bulk } = pipeline;
  if (inputs.ingestLinesPerSecond === 0 || inputs.lines === 0) {
    bulk.queue.push({
      count: inputs.lines,
      receives: 0,
      requeues: 0,
      sentAt: events.now,
      interactive: false,
    });
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
