import { DECIDE_SETTINGS, type Lane } from "../../contract/index.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/**
 * The decide function's configuration, read once at cold start. Each variable's parser, default and
 * meaning are its entry in {@link DECIDE_SETTINGS} (`contract/settings/decideSettings.ts`).
 */
export interface DecideConfig {
  /** `OUTCOMES_TABLE` (required): the outcomes table's name. */
  outcomesTable: string;
  /** `ENDPOINT_NAME` (required): the SageMaker endpoint's name. */
  endpointName: string;
  /** `INFERENCE_COMPONENT_NAME`: the lane's inference component on the endpoint. Default "" (none). */
  inferenceComponentName?: string;
  /**
   * `LANE`: the lane this function drains; every endpoint call names it in `CustomAttributes`.
   * Default `interactive`.
   */
  lane?: Lane;
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
  /**
   * `UNKNOWN_POLICY_WAIT_SECONDS`: how long an item naming a policy that is not loaded is given
   * back (a rollout under way) before it is rejected. Default 0 (rejected at once); the CDK app sets 900.
   */
  unknownPolicyWaitSeconds: number;
  /** `JOBS_TABLE`: where outcomes of a job's lines are counted. Default "" (no jobs). */
  jobsTable?: string;
  /** `MAX_RECEIVE_COUNT`: the work queue's; a job line failing its last receive is dead-lettered. Default 0 (not counted). */
  maxReceiveCount?: number;
  /**
   * `STATE_ARCHIVE_BUCKET`: where the whole state of an item sent to review is kept (see
   * `core/states`). Default none ("" or unset): the review shows the outcome's preview.
   */
  stateArchiveBucket?: string;
  /** `STATE_ARCHIVE_PREFIX`: the key prefix of those states. Default `review-states/`. */
  stateArchivePrefix?: string;
  /** `SHADOW_ENDPOINT_NAME`: the candidate endpoint policies' `shadow` sections ask. Default "" (none). */
  shadowEndpointName?: string;
  /** `SHADOW_TIMEOUT_MS`: the candidate's budget per group. Default 5000. */
  shadowTimeoutMs?: number;
  /** `SHADOW_MAX_CONCURRENT`: candidate calls in flight at once per instance. Default 2. */
  shadowMaxConcurrent?: number;
}

/**
 * Reads and validates the decide function's environment (see {@link DecideConfig} for each
 * variable and its default). The SDK clients read their own standard variables (`AWS_REGION`,
 * `AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME`, `AWS_ENDPOINT_URL_DYNAMODB`, …) and Powertools its
 * (`POWERTOOLS_SERVICE_NAME`, `POWERTOOLS_METRICS_NAMESPACE`, `POWERTOOLS_LOG_LEVEL`).
 *
 * @param defaultPolicyDir - `POLICY_DIR` when unset.
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readDecideConfig(
  env: Readonly<Record<string, string | undefined>>,
  defaultPolicyDir: string,
): DecideConfig {
  const values = parseEnvironment("decide", DECIDE_SETTINGS, env);
  return { ...values, policyDir: values.policyDir || defaultPolicyDir };
}
