import { z } from "zod";

/**
 * What the function host process (the stand-in for Lambda: the event source poller running the
 * real decide handler) is given, as one JSON argument: the local endpoints and names, the event
 * source mapping's settings and the decide function's extra variables.
 */
export const FunctionHostConfigSchema = z.strictObject({
  region: z.string().min(1),
  sqsEndpoint: z.url(),
  dynamodbEndpoint: z.url(),
  gatewayUrl: z.url(),
  queueUrl: z.url(),
  queueArn: z.string().min(1),
  table: z.string().min(1),
  endpointName: z.string().min(1),
  policyDir: z.string().min(1).optional(),
  functionTimeoutMs: z.number().int().positive(),
  batchSize: z.number().int().min(1).max(10_000),
  maximumBatchingWindowMs: z.number().int().min(0),
  maximumConcurrency: z.number().int().positive(),
  /** `DEADLINE_MARGIN_MS`, `MAX_CONCURRENT_GROUPS`, … for the decide function. */
  environment: z.record(z.string(), z.string()),
});

/** The function host's configuration. */
export type FunctionHostConfig = z.infer<typeof FunctionHostConfigSchema>;

/**
 * One line the function host prints on stdout (besides the decide function's own Powertools log
 * lines): `ready`, a batch handed to the handler, a batch finished with what the poller deleted.
 */
export type FunctionHostEvent =
  | { chaos: "ready" }
  | { chaos: "batch-start"; messages: string[] }
  | { chaos: "batch-done"; succeeded: string[]; failed: string[]; wholeBatchFailure?: string };
