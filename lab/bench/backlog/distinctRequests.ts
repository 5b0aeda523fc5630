import { type BacklogItem, groupKey } from "./buildBacklogItems.js";

/** The requests `items` need at best: one per distinct (policy, state) ({@link groupKey}). */
export function distinctRequests(items: readonly BacklogItem[]): number {
  return new Set(items.map(groupKey)).size;
}

/** The rounds' distinct requests, summed: each round is drained on its own. */
export function requestsOf(rounds: readonly (readonly BacklogItem[])[]): number {
  return rounds.reduce((total, backlog) => total + distinctRequests(backlog), 0);
}
