import { setTimeout as sleep } from "node:timers/promises";

const POLL_MS = 100;

/** Polls `condition` until it holds (true) or `timeoutMs` passes (false). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number } = {},
): Promise<boolean> {
  const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}
