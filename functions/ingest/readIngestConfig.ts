import { INGEST_SETTINGS } from "../../contract/index.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/**
 * The ingest function's configuration, read once at cold start. Each variable's parser, default and
 * meaning are its entry in {@link INGEST_SETTINGS} (`contract/settings/ingestSettings.ts`).
 */
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
  /** `JOBS_TABLE`: each object version read is a job there. Default "" (no jobs). */
  jobsTable?: string;
}

/**
 * Reads and validates the ingest function's environment (see {@link IngestConfig}); the SDK
 * clients read their standard variables (`AWS_REGION`, `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL_SQS`, …).
 *
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readIngestConfig(
  env: Readonly<Record<string, string | undefined>>,
  defaultPolicyDir: string,
): IngestConfig {
  const values = parseEnvironment("ingest", INGEST_SETTINGS, env);
  return { ...values, policyDir: values.policyDir || defaultPolicyDir };
}
