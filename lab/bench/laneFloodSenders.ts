/**
 * The bulk senders of the lane flood bench (`laneFloodMain.ts`), on a worker thread of their own: building
 * and uploading a wave's ~12 MB of bodies on the thread that times the interactive call delayed
 * that call's own request and answer in the bench process, and was counted as the server's delay.
 *
 * Each message `{ kind, index }` sends one wave of `senders` bulk requests at once and replies
 * `{ started: true }` once every request is under way, then `{ statuses }` (0: hung up) when all
 * ended.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CUSTOM_ATTRIBUTES_HEADER, laneAttributeOf } from "../../contract/lanes/lanes.js";
import { laneFloodBody } from "./laneFloodBody.js";

/** What the bench gives the senders' thread. */
export interface LaneFloodSendersData {
  url: string;
  senders: number;
  /** The state every bulk request carries. */
  state: string;
}

/** One wave to send: a `hang-up` wave's clients go away 300 ms after they start. */
export interface LaneFloodWave {
  kind: "hang-up" | "refused";
  index: number;
}

const port = parentPort;
if (port === null) throw new Error("laneFloodSenders runs as a worker thread of laneFloodMain");
const { url, senders, state } = workerData as LaneFloodSendersData;

async function send(body: string, signal: AbortSignal | undefined): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", [CUSTOM_ATTRIBUTES_HEADER]: laneAttributeOf("bulk") },
    body,
    ...(signal !== undefined ? { signal } : {}),
  });
  await response.arrayBuffer();
  return response.status;
}

port.on("message", async ({ kind, index }: LaneFloodWave) => {
  const bodies = Array.from({ length: senders }, (_, sender) =>
    laneFloodBody(`bulk-${index}-${sender}`, state),
  );
  const requests = bodies.map((body) =>
    send(body, kind === "hang-up" ? AbortSignal.timeout(300) : undefined).catch(() => 0),
  );
  port.postMessage({ started: true });
  port.postMessage({ statuses: await Promise.all(requests) });
});
