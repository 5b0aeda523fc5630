/**
 * How many tokens of the live sequence a new prompt may reuse: the last of the prompt's chunk
 * `boundaries` (end of the preamble, end of the state) that lies within the `matched` prefix both
 * share AND at which the live sequence also ended an evaluation chunk; 0 when there is none.
 *
 * llama.cpp's numbers for a position depend on the chunk that computed it: a prefix cut mid-chunk
 * matches token for token but was computed differently from a cold run of the new prompt, and
 * reusing it changes the answer (6e-4 measured on tiny-qwen3). Rewinding to such a shared chunk
 * end keeps every reused position exactly as a cold run computes it.
 *
 * @param boundaries the prompt's chunk ends before its own suffix, ascending.
 * @param matched tokens the live sequence and the prompt have in common from the start.
 * @param chunkEnds where the live sequence's evaluation chunks ended.
 */
export function reusablePrefix(
  boundaries: readonly number[],
  matched: number,
  chunkEnds: readonly number[],
): number {
  let keep = 0;
  for (const boundary of boundaries) {
    if (boundary <= matched && chunkEnds.includes(boundary)) keep = Math.max(keep, boundary);
  }
  return keep;
}
