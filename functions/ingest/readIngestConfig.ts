import { z } from "zod";
import { envInteger, envRequired, parseEnvironment } from "../shared/envSchemas.js";

/** The ingest function's configuration, read once at cold start. */
export interface IngestConfig {
  /** `WORK_QUEUE_URL` (required): the queue the decide function reads. */
  workQueueUrl: string;
  /** `OUTCOMES_TABLE` (required): where bad lines are recorded as `rejected`. */
  outcomesTable: string;
  /** `POLICY_DIR`: the policies lines are checked against. Default: beside the bundle. */
  policyDir: string;
  /** `MAX_LINES_PER_INVOCATION`: lines read before stopping at a checkpoint. Default 50000. */
  maxLinesPerInvocation: number;
  /** `DEADLINE_MARGIN_MS`: stop reading this long before the function's timeout. Default 10000. */
  deadlineMarginMs: number;
  /** `MAX_ATTEMPTS`: attempts per SendMessageBatch or outcome write. Default 6. */
  maxAttempts: number;
}

const IngestEnvironment = z.object({
  WORK_QUEUE_URL: envRequired,
  OUTCOMES_TABLE: envRequired,
  POLICY_DIR: z.string().optional(),
  MAX_LINES_PER_INVOCATION: envInteger(1, 10_000_000, 50_000),
  DEADLINE_MARGIN_MS: envInteger(0, 900_000, 10_000),
  MAX_ATTEMPTS: envInteger(1, 20, 6),
});

/**
 * Reads and validates the ingest function's environment (see {@link IngestConfig}); the SDK
 * clients read their standard variables (`AWS_REGION`, `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL_SQS`, …).
 *
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readIngestConfig(env: NodeJS.ProcessEnv, defaultPolicyDir: string): IngestConfig {
  const e = parseEnvironment("ingest", IngestEnvironment, env);
  return {
    workQueueUrl: e.WORK_QUEUE_URL,
    outcomesTable: e.OUTCOMES_TABLE,
    policyDir: e.POLICY_DIR?.trim() || defaultPolicyDir,
    maxLinesPerInvocation: e.MAX_LINES_PER_INVOCATION,
    deadlineMarginMs: e.DEADLINE_MARGIN_MS,
    maxAttempts: e.MAX_ATTEMPTS,
  };
}
