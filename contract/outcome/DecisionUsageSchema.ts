import { z } from "zod";
import { LaneSchema } from "../lanes/lanes.js";
import type { Outcome } from "./OutcomeSchema.js";

/**
 * What the endpoint request an item was decided in cost, as its outcome records it: the request's
 * tokens and endpoint time, the number of items that shared the request, and the lane. An item's
 * own share — its cost per decision — is each count ÷ `group_size` (`docs/cost.md`). A job's line
 * item keeps a copy for the manifest's sums.
 */
export const DecisionUsageSchema = z.object({
  /** Items decided by the request (one state, one policy). */
  group_size: z.number().int().positive(),
  /** The request's prompt tokens (the shared state counted once). */
  input_tokens: z.number().int().nonnegative(),
  /** Tokens the endpoint evaluated for the request; absent when it did not say. */
  evaluated_tokens: z.number().int().nonnegative().optional(),
  /** Tokens it reused instead (shared prefix, cache); absent when it did not say. */
  cached_tokens: z.number().int().nonnegative().optional(),
  /** The successful endpoint call, in milliseconds. */
  endpoint_ms: z.number().nonnegative().optional(),
  /** The lane of the decide function that asked. */
  lane: LaneSchema.optional(),
});

/** What the request an item was decided in cost (see {@link DecisionUsageSchema}). */
export type DecisionUsage = z.infer<typeof DecisionUsageSchema>;

/**
 * The usage an outcome records, or `undefined` for one decided without a model call (rejected
 * before the endpoint, refused by it, decided before outcomes carried tokens).
 *
 * @example decisionUsageOf(outcome)?.input_tokens // the request's prompt tokens
 */
export function decisionUsageOf(
  outcome: Pick<Outcome, "request" | "timings" | "lane">,
): DecisionUsage | undefined {
  const request = outcome.request;
  if (request?.input_tokens === undefined) return undefined;
  const endpointMs = outcome.timings?.endpoint_ms;
  return {
    group_size: request.group_size,
    input_tokens: request.input_tokens,
    ...(request.evaluated_tokens !== undefined ? { evaluated_tokens: request.evaluated_tokens } : {}),
    ...(request.cached_tokens !== undefined ? { cached_tokens: request.cached_tokens } : {}),
    ...(endpointMs !== undefined ? { endpoint_ms: endpointMs } : {}),
    ...(outcome.lane !== undefined ? { lane: outcome.lane } : {}),
  };
}
