import { sha256Hex, type WorkItemInput } from "../../../core/common/index.js";
import type { SeededRandom } from "../../../core/common/SeededRandom.js";
import type { PolicySet } from "../../../core/policy/index.js";

/** One work item of the backlog bench. */
export interface BacklogItem {
  policy: string;
  id: string;
  /** The SQS body. */
  body: string;
  /** The state's JSON text as sent (what the pipeline groups by). */
  stateText: string;
  /** SHA-256 of the state text, which the outcome's `state_sha256` must equal. */
  stateSha256: string;
  /** Whether other items of the backlog carry the same policy and state (they can share one request). */
  shared: boolean;
}

/** Options of {@link buildBacklogItems}. */
export interface BacklogItemsOptions {
  /** Valid sample items (any policy); every loaded policy must have some. */
  templates: readonly WorkItemInput[];
  policies: PolicySet;
  count: number;
  /** Share of items, on average, that belong to a group sharing one state (2 to 5 items, adjacent); in [0, 1). Default 0.4. */
  sharedShare?: number;
  random: SeededRandom;
  idPrefix: string;
}

/**
 * A backlog as a batch file or an incident storm brings it: items of every loaded policy in turn
 * (so all three policies of `policies/`), most with a state of their own (a sample varied by a
 * reference number, as real states differ) and about `sharedShare` of them in runs of 2–5
 * adjacent items with the same policy and state (a document sent for several ids, one incident
 * reported many times), which the pipeline may answer with one request.
 *
 * @throws Error when a loaded policy has no valid sample.
 */
export function buildBacklogItems(options: BacklogItemsOptions): BacklogItem[] {
  const { random } = options;
  const byPolicy = new Map<string, WorkItemInput[]>();
  for (const template of options.templates) {
    byPolicy.set(template.policy, [...(byPolicy.get(template.policy) ?? []), template]);
  }
  const names = options.policies.names();
  for (const name of names) {
    if (!byPolicy.has(name)) throw new Error(`no valid sample work item for the policy ${name}`);
  }
  const items: BacklogItem[] = [];
  const sharedShare = options.sharedShare ?? 0.4;
  for (let turn = 0; items.length < options.count; turn += 1) {
    const policy = names[turn % names.length] as string;
    const samples = byPolicy.get(policy) as WorkItemInput[];
    const template = samples[Math.floor(turn / names.length) % samples.length] as WorkItemInput;
    // A group (mean size 3.5) starts with the chance that makes `sharedShare` of the items grouped.
    const size = random.chance(sharedShare / (3.5 - 2.5 * sharedShare)) ? 2 + random.index(4) : 1;
    const stateText = JSON.stringify(withReference(template.state, turn));
    const stateSha256 = sha256Hex(stateText);
    for (let k = 0; k < size && items.length < options.count; k += 1) {
      const id = `${options.idPrefix}-${items.length}`;
      const facts = template.facts === undefined ? "" : `, "facts": ${JSON.stringify(template.facts)}`;
      items.push({
        policy,
        id,
        stateText,
        stateSha256,
        shared: size > 1,
        body: `{"id": ${JSON.stringify(id)}, "policy": ${JSON.stringify(policy)}, "state": ${stateText}${facts}}`,
      });
    }
  }
  // A run cut short by `count` may have left a last group of one.
  const sizes = new Map<string, number>();
  for (const item of items) sizes.set(groupKey(item), (sizes.get(groupKey(item)) ?? 0) + 1);
  return items.map((item) => ({ ...item, shared: (sizes.get(groupKey(item)) ?? 0) > 1 }));
}

/** The (policy, state) an item's request is for. */
export function groupKey(item: Pick<BacklogItem, "policy" | "stateText">): string {
  return `${item.policy}\u0000${item.stateText}`;
}

function withReference(state: WorkItemInput["state"], n: number): WorkItemInput["state"] {
  const reference = ` Reference ${30_000 + n}.`;
  if (typeof state === "string") return `${state}${reference}`;
  if (Array.isArray(state)) return [...state, reference.trim()];
  const body = state.body;
  return typeof body === "string"
    ? { ...state, body: `${body}${reference}` }
    : { ...state, reference: 30_000 + n };
}
