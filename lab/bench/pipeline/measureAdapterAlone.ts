import { buildSystemOneBody } from "../../../core/pipeline/index.js";
import type { Policy } from "../../../core/policy/index.js";
import type { StreamItem } from "./buildTicketStream.js";

/** What {@link measureAdapterAlone} found. */
export interface AdapterAloneRun {
  items: number;
  concurrency: number;
  wall_ms: number;
  decisions_per_s: number;
  /** `usage.input_tokens` summed over the responses. */
  input_tokens: number;
}

/**
 * The adapter alone on the items, at saturation: each item's System One request (all the policy's
 * questions on its state, the body the decide function would send) posted straight to the
 * adapter's `/invocations` by `concurrency` clients at once, so the engine is never idle.
 *
 * @throws Error when the adapter answers anything but 200.
 */
export async function measureAdapterAlone(
  adapterUrl: string,
  policy: Policy,
  items: readonly StreamItem[],
  concurrency: number,
): Promise<AdapterAloneRun> {
  let next = 0;
  let inputTokens = 0;
  const started = performance.now();
  const client = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as StreamItem;
      // Awaited first: `total += await …` would read the total before the wait and lose updates.
      const tokens = await invoke(adapterUrl, buildSystemOneBody(policy, item.stateText));
      inputTokens += tokens;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const wallMs = performance.now() - started;
  return {
    items: items.length,
    concurrency,
    wall_ms: Math.round(wallMs),
    decisions_per_s: items.length / (wallMs / 1000),
    input_tokens: inputTokens,
  };
}

/** Posts one System One body to the adapter and returns its `usage.input_tokens`. */
export async function invoke(adapterUrl: string, body: string): Promise<number> {
  const text = await postInvocation(adapterUrl, body);
  return (JSON.parse(text) as { usage: { input_tokens: number } }).usage.input_tokens;
}

/**
 * Posts one System One body to the adapter's `/invocations`: its answer's text.
 * @throws Error when the adapter answers anything but 200.
 */
export async function postInvocation(adapterUrl: string, body: string): Promise<string> {
  const response = await fetch(new URL("invocations", `${adapterUrl}/`), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`the adapter answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}
