import { buildSystemOneBody } from "../../../core/pipeline/index.js";
import type { PolicySet } from "../../../core/policy/index.js";
import { postInvocation } from "../pipeline/measureAdapterAlone.js";
import { type BacklogItem, groupKey } from "./buildBacklogItems.js";
import { ADAPTER_CLIENTS } from "./constants.js";
import { addAnswerUsage, noTokenUsage, type TokenUsage } from "./tokenUsage.js";

/** What the adapter alone did. */
export interface AloneRun {
  wallS: number;
  decisionsPerS: number;
  requests: number;
  /** What the answers say the adapter evaluated and reused. */
  tokens: TokenUsage;
}

/**
 * The adapter alone at saturation on the items: one System One request per distinct (policy,
 * state) — the fewest the items need, each answering every item that shares it — posted straight
 * to `/invocations` by {@link ADAPTER_CLIENTS} clients; decisions/s counts items.
 *
 * @throws Error when the adapter answers anything but 200.
 */
export async function adapterAlone(
  adapterUrl: string,
  policies: PolicySet,
  items: readonly BacklogItem[],
): Promise<AloneRun> {
  const bodies = [...new Map(items.map((item) => [groupKey(item), item])).values()].map((item) => {
    const policy = policies.get(item.policy);
    if (policy === undefined) throw new Error(`the policy ${item.policy} is not loaded`);
    return buildSystemOneBody(policy, item.stateText);
  });
  let next = 0;
  const tokens = noTokenUsage();
  const started = performance.now();
  const client = async (): Promise<void> => {
    while (next < bodies.length) {
      addAnswerUsage(tokens, await postInvocation(adapterUrl, bodies[next++] as string));
    }
  };
  await Promise.all(Array.from({ length: ADAPTER_CLIENTS }, client));
  const wallS = (performance.now() - started) / 1000;
  return { wallS, decisionsPerS: items.length / wallS, requests: bodies.length, tokens };
}
