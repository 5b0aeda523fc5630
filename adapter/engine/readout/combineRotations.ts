import type { DecisionOption, DecisionResult, DecisionTiming } from "../types.js";
import { PROBABILITY_FLOOR } from "./slotDistribution.js";

/**
 * One debiased answer from a question's answers under cyclic rotations of its options: per option
 * id, the mean of its probabilities over the rotations, renormalised; `option_logits` their natural
 * logarithms (floored like slot scores); `debias.order_sensitivity` the largest spread (max − min) of one option's probability
 * across the rotations. Token counts and timings are summed; the prompt hash, labels and readout
 * are those of the first rotation (the options as given), every rotation's hash in `debias`.
 *
 * Every sum runs over the values in ascending order, so the answer does not depend on the order in
 * which the rotations or options come: the same options given in a rotated order (the same set of
 * prompts) give exactly the same probabilities per id.
 *
 * @param options the question's options, in the order the answer lists them.
 * @param rotations one result per rotation, the unrotated order first.
 * @throws RangeError when there is no rotation, or a rotation lacks one of the options.
 */
export function combineRotations(
  options: readonly DecisionOption[],
  rotations: readonly DecisionResult[],
): DecisionResult {
  const [first] = rotations;
  if (first === undefined) throw new RangeError("at least one rotation is needed");
  const perOption = options.map((option) =>
    rotations.map((rotation) => {
      const index = rotation.option_ids.indexOf(option.id);
      const probability = rotation.probabilities[index];
      if (probability === undefined) throw new RangeError(`a rotation lacks option ${option.id}`);
      return probability;
    }),
  );
  const means = perOption.map((values) => ascendingSum(values) / values.length);
  const total = ascendingSum(means);
  const probabilities = means.map((mean) => mean / total);
  const spread = Math.max(...perOption.map((values) => Math.max(...values) - Math.min(...values)));
  const timing = (key: keyof DecisionTiming): number => ascendingSum(rotations.map((r) => r.timing[key]));
  const tokens = (key: "input_tokens" | "evaluated_tokens" | "cached_tokens"): number =>
    rotations.reduce((sum, rotation) => sum + rotation[key], 0);
  const slotMasses = rotations.map((rotation) => rotation.readout.slot_mass);
  return {
    ...first,
    option_ids: options.map((option) => option.id),
    probabilities,
    option_logits: probabilities.map((probability) => Math.log(Math.max(probability, PROBABILITY_FLOOR))),
    readout: {
      ...first.readout,
      option_logits: "log of the probability averaged over option rotations",
      slot_mass: slotMasses.every((mass) => mass !== null)
        ? ascendingSum(slotMasses as number[]) / slotMasses.length
        : null,
    },
    input_tokens: tokens("input_tokens"),
    evaluated_tokens: tokens("evaluated_tokens"),
    cached_tokens: tokens("cached_tokens"),
    timing: {
      tokenize_ms: timing("tokenize_ms"),
      prefill_ms: timing("prefill_ms"),
      readout_ms: timing("readout_ms"),
      queue_ms: first.timing.queue_ms,
      total_ms: timing("total_ms"),
    },
    debias: {
      method: "cyclic",
      rotations: rotations.length,
      order_sensitivity: spread,
      prompt_sha256s: rotations.map((rotation) => rotation.prompt_sha256),
    },
  };
}

/** The sum of the values in ascending order: the same whatever order they come in. */
function ascendingSum(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b).reduce((sum, value) => sum + value, 0);
}
