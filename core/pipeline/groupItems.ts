import type { DecisionGroup, ParsedItem } from "./types.js";

/**
 * Groups items that share a policy and a state as the adapter renders it (Python's `json.dumps`
 * of the state text), in order of first appearance: each group is answered by one endpoint
 * request, and every item in it gets the same answers. Two texts that differ only in whitespace
 * render alike and share a group; `2` and `2.0` do not.
 */
export function groupItems(items: readonly ParsedItem[]): DecisionGroup[] {
  const groups = new Map<string, DecisionGroup>();
  for (const item of items) {
    const key = `${item.policy.name}\u0000${item.renderedState}`;
    const group = groups.get(key);
    if (group) group.items.push(item);
    else
      groups.set(key, {
        policy: item.policy,
        stateText: item.stateText,
        renderedState: item.renderedState,
        items: [item],
      });
  }
  return [...groups.values()];
}
