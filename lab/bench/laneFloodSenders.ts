/**
 * The bulk senders of the lane flood bench (`laneFloodMain.ts`), on a worker thread of their own: building
 * and uploading a wave's ~12 MB of bodies on the thread that times the interactive call delayed
 * that call's own request and answer in the bench process, and was counted as the server's delay.
 *
 * Each message `{ kind, index }` sends one wave of `senders` bulk requests at once and replies
 * `{ started: true }` once every request is under way, then `{ statuses }` (0: hung up) when all
 * ended. A wave's bodies are encoded before it starts and written with `node:http` as they are
 * (`fetch` encodes and copies each body again while it sends): what the senders cost on the
 * bench's machine while the interactive call is timed is their upload, no more.
 */
import { request } from "node:http";
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

/** Posts `body` as a bulk call: its status, or 0 when it failed or `signal` aborted it first. */
function send(body: Buffer, signal: AbortSignal | undefined): Promise<number> {
  return new Promise((resolve) => {
    const call = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": body.length,
        [CUSTOM_ATTRIBUTES_HEADER]: laneAttributeOf("bulk"),
      },
      ...(signal !== undefined ? { signal } : {}),
    });
    call.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", () => resolve(0));
    });
    call.on("error", () => resolve(0));
    call.end(body);
  });
}

port.on("message", async ({ kind, index }: LaneFloodWave) => {
  const bodies = Array.from({ length: senders }, (_, sender) =>
    Buffer.from(laneFloodBody(`bulk-${index}-${sender}`, state)),
  );
  const requests = bodies.map((body) =>
    send(body, kind === "hang-up" ? AbortSignal.timeout(300) : undefined),
  );
  port.postMessage({ started: true });
  port.postMessage({ statuses: await Promise.all(requests) });
});
