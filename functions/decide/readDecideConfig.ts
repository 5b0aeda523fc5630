import { z } from "zod";
import { envInteger as integer, parseEnvironment, envRequired as required } from "../shared/envSchemas.js";

/** The decide function's configuration, read once at cold start. */
export interface DecideConfig {
  /** `OUTCOMES_TABLE` (required): the outcomes table's name. */
  outcomesTable: string;
  /** `ENDPOINT_NAME` (required): the SageMaker endpoint's name. */
  endpointName: string;
  /** `POLICY_DIR`: the folder of `*.yaml` policies. Default: the caller's default (beside the bundle). */
  policyDir: string;
  /** `DEADLINE_MARGIN_MS`: no group starts later than remaining time less this. Default 10000. */
  deadlineMarginMs: number;
  /** `MAX_CONCURRENT_GROUPS`: endpoint requests in flight at once. Default 4. */
  maxConcurrentGroups: number;
  /** `MAX_ATTEMPTS`: attempts per endpoint request or outcome write, the first included. Default 6. */
  maxAttempts: number;
  /** `RETRY_BASE_DELAY_MS`: the first backoff's cap. Default 100. */
  retryBaseDelayMs: number;
  /** `RETRY_MAX_DELAY_MS`: the largest backoff cap. Default 5000. */
  retryMaxDelayMs: number;
}

/** The environment variables the decide function reads, and how. */
const DecideEnvironment = z.object({
  OUTCOMES_TABLE: required,
  ENDPOINT_NAME: required,
  POLICY_DIR: z.string().optional(),
  DEADLINE_MARGIN_MS: integer(0, 900_000, 10_000),
  MAX_CONCURRENT_GROUPS: integer(1, 64, 4),
  MAX_ATTEMPTS: integer(1, 20, 6),
  RETRY_BASE_DELAY_MS: integer(1, 60_000, 100),
  RETRY_MAX_DELAY_MS: integer(1, 300_000, 5000),
});

/**
 * Reads and validates the decide function's environment (see {@link DecideConfig} for each
 * variable and its default). The SDK clients read their own standard variables (`AWS_REGION`,
 * `AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME`, `AWS_ENDPOINT_URL_DYNAMODB`, …) and Powertools its
 * (`POWERTOOLS_SERVICE_NAME`, `POWERTOOLS_METRICS_NAMESPACE`, `POWERTOOLS_LOG_LEVEL`).
 *
 * @param defaultPolicyDir - `POLICY_DIR` when unset.
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readDecideConfig(env: NodeJS.ProcessEnv, defaultPolicyDir: string): DecideConfig {
  const e = parseEnvironment("decide", DecideEnvironment, env);
  return {
    outcomesTable: e.OUTCOMES_TABLE,
    endpointName: e.ENDPOINT_NAME,
    policyDir: e.POLICY_DIR?.trim() || defaultPolicyDir,
    deadlineMarginMs: e.DEADLINE_MARGIN_MS,
    maxConcurrentGroups: e.MAX_CONCURRENT_GROUPS,
    maxAttempts: e.MAX_ATTEMPTS,
    retryBaseDelayMs: e.RETRY_BASE_DELAY_MS,
    retryMaxDelayMs: e.RETRY_MAX_DELAY_MS,
  };
}
