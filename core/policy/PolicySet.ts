import { findEventMapping, mapEventToItem } from "./mapEventToItem.js";
import type { Policy } from "./Policy.js";
import type { WorkItem } from "./types.js";

/**
 * The policies a function serves, by name, and the EventBridge events they map. Built by
 * `loadPolicies` (which guarantees unique names and that no two policies map the same
 * source and detail-type).
 */
export class PolicySet {
  readonly #byName: ReadonlyMap<string, Policy>;

  constructor(policies: Iterable<Policy>) {
    const sorted = [...policies].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.#byName = new Map(sorted.map((policy) => [policy.name, policy]));
  }

  /** The policy with this name, if loaded. */
  get(name: string): Policy | undefined {
    return this.#byName.get(name);
  }

  /** The loaded policies' names, sorted. */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /**
   * The work item an EventBridge event becomes, and the policy that mapped it: the first policy
   * (by name) with a mapping whose `source` and `detail-type` equal the event's.
   *
   * @returns undefined when no policy maps this event (or it is not an EventBridge-shaped object)
   * @throws EventMappingError when a mapping matches but cannot build the item (permanent: reject)
   */
  mapEvent(event: unknown): { policy: Policy; item: WorkItem } | undefined {
    for (const policy of this.#byName.values()) {
      const mapping = findEventMapping(policy, event);
      if (mapping !== undefined) return { policy, item: mapEventToItem(policy, mapping, event as object) };
    }
    return undefined;
  }
}
