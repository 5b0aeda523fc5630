/**
 * Which item a reviewer sees next: the first one in the queue's view (its filters and order) that
 * is not the one just left and was not skipped in this browser tab. Skips last as long as the tab
 * (sessionStorage): a skipped item stays in the queue for others, and for this reviewer after a
 * review of another sends them back through the queue.
 */
import { call } from "./api.js";
import { type Filters, queuePath } from "./queueFilters.js";
import { itemHref } from "./route.js";
import type { QueuePage } from "./types.js";

const SKIPPED_KEY = "review-console.skipped";
/** Queue pages read at most to find the next item not skipped. */
const MAX_PAGES = 4;

const keyOf = (policy: string, id: string) => `${policy}/${id}`;

/** The items skipped in this tab, as `policy/id`. */
export function skippedItems(): Set<string> {
  try {
    const stored = JSON.parse(sessionStorage.getItem(SKIPPED_KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(stored) ? stored.map(String) : []);
  } catch {
    return new Set();
  }
}

/** Whether an item was skipped in this tab. */
export function isSkipped(policy: string, id: string): boolean {
  return skippedItems().has(keyOf(policy, id));
}

/** Remembers an item as skipped in this tab. */
export function skipItem(policy: string, id: string): void {
  const skipped = skippedItems();
  skipped.add(keyOf(policy, id));
  sessionStorage.setItem(SKIPPED_KEY, JSON.stringify([...skipped]));
}

/** Forgets every skip of this tab. */
export function forgetSkips(): void {
  sessionStorage.removeItem(SKIPPED_KEY);
}

/**
 * The address of the next item to review after `current` under `filters` (kept in the address),
 * or undefined when none is left that was not skipped (among the first pages of the queue).
 */
export async function nextItemHref(
  filters: Filters,
  current: { policy: string; id: string },
): Promise<string | undefined> {
  const skipped = skippedItems();
  let before: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await call<QueuePage>(queuePath(filters, before));
    const next = answer.items.find(
      (item) =>
        !(item.policy === current.policy && item.id === current.id) &&
        !skipped.has(keyOf(item.policy, item.id)),
    );
    if (next !== undefined) return itemHref(next.policy, next.id, filters);
    if (answer.next === undefined) return undefined;
    before = answer.next;
  }
  return undefined;
}
