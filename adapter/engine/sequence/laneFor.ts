import type { PreparedPrompt } from "../prompt/preparePrompts.js";
import type { ChunkedSequence } from "./ChunkedSequence.js";
import { commonPrefixLength } from "./commonPrefixLength.js";
import { reusablePrefix } from "./reusablePrefix.js";

/**
 * The free sequence a batch runs on: the one whose live tokens its first prompt can reuse most (at
 * a chunk end, as `ChunkedSequence.prefill` would), the least recently used among equals.
 */
export function laneFor(
  free: readonly ChunkedSequence[],
  first: PreparedPrompt | undefined,
): ChunkedSequence {
  let best = free[0] as ChunkedSequence;
  if (first === undefined || free.length === 1) return best;
  let bestReuse = -1;
  for (const lane of free) {
    const reuse = reusablePrefix(
      [first.preambleBoundary, first.sharedBoundary],
      commonPrefixLength(lane.sequence.contextTokens, first.tokens),
      lane.chunkEnds,
    );
    if (reuse > bestReuse) {
      best = lane;
      bestReuse = reuse;
    }
  }
  return best;
}
