import type { BatchItem, PrioritizedBatchItem } from "node-llama-cpp";

/**
 * node-llama-cpp batching strategy that keeps parallel sequences' answers bitwise equal to a
 * serial run's: one decode step takes the oldest queued chunk whole, plus only the other queued
 * chunks of exactly its length (as many as fit). llama.cpp evaluates several sequences' tokens in
 * pieces of equal size per sequence (`split_equal` across KV streams), so a longer chunk sharing a
 * step with a shorter one would be split, and a split changes llama.cpp's numbers for every
 * position after it; equal lengths are never split. Chunks of other lengths wait for a later step.
 */
export function equalLengthBatching({
  items,
  size,
}: {
  items: readonly BatchItem[];
  size: number;
}): PrioritizedBatchItem[] {
  const [oldest] = items;
  if (oldest === undefined) return [];
  const length = oldest.tokens.length;
  const chosen: PrioritizedBatchItem[] = [{ item: oldest, processAmount: Math.min(length, size) }];
  let left = size - Math.min(length, size);
  for (const item of items.slice(1)) {
    if (left < length) break;
    if (item.tokens.length !== length) continue;
    chosen.push({ item, processAmount: length });
    left -= length;
  }
  return chosen;
}
