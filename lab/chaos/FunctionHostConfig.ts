import { z } from "zod";
import type { Lane } from "../../contract/lanes/lanes.js";

const LaneHostConfigSchema = z.strictObject({
  queueUrl: z.url(),
  queueArn: z.string().min(1),
  batchSize: z.number().int().min(1).max(10_000),
  maximumBatchingWindowMs: z.number().int().min(0),
  /** The lane's poller's concurrency (its share of the adapter). */
  maximumConcurrency: z.number().int().positive(),
  /** The lane's decide function's `MAX_CONCURRENT_GROUPS` (endpoint calls per invocation). */
  maxConcurrentGroups: z.number().int().positive(),
});

/**
 * What the function host process (the stand-in for Lambda: per lane, the event source poller
 * running the real decide handler of that lane) is given, as one JSON argument: the local
 * endpoints and names, each lane's queue and event source mapping settings, and the decide
 * function's extra variables (the same for both lanes).
 */
export const FunctionHostConfigSchema = z.strictObject({
  region: z.string().min(1),
  sqsEndpoint: z.url(),
  dynamodbEndpoint: z.url(),
  gatewayUrl: z.url(),
  table: z.string().min(1),
  endpointName: z.string().min(1),
  policyDir: z.string().min(1).optional(),
  functionTimeoutMs: z.number().int().positive(),
  lanes: z.strictObject({ interactive: LaneHostConfigSchema, bulk: LaneHostConfigSchema }),
  /** `DEADLINE_MARGIN_MS`, … for the decide function of each lane. */
  environment: z.record(z.string(), z.string()),
});

/** One lane's queue and event source mapping in the function host. */
export type LaneHostConfig = z.infer<typeof LaneHostConfigSchema>;

/** The function host's configuration. */
export type FunctionHostConfig = z.infer<typeof FunctionHostConfigSchema>;

/**
 * One line the function host prints on stdout (besides the decide function's own Powertools log
 * lines): `ready`, a batch handed to the handler, a batch finished with what the poller deleted.
 */
export type FunctionHostEvent =
  | { chaos: "ready" }
  | { chaos: "batch-start"; lane: Lane; messages: string[] }
  | { chaos: "batch-done"; lane: Lane; succeeded: string[]; failed: string[]; wholeBatchFailure?: string };
