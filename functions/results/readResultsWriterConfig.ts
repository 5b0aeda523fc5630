import { RESULTS_WRITER_SETTINGS } from "../../contract/index.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/**
 * The results writer's configuration, read once at cold start. Each variable's parser, default
 * and meaning are its entry in {@link RESULTS_WRITER_SETTINGS}
 * (`contract/settings/resultsWriterSettings.ts`).
 */
export interface ResultsWriterConfig {
  /** `JOBS_TABLE` (required): the jobs table whose ended jobs get their results. */
  jobsTable: string;
  /** `MAX_ATTEMPTS`: attempts per DynamoDB call of the jobs table. Default 6. */
  maxAttempts: number;
}

/**
 * Reads and validates the results writer's environment (see {@link ResultsWriterConfig}); the SDK
 * clients read their standard variables (`AWS_REGION`, `AWS_ENDPOINT_URL_S3`, …).
 *
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readResultsWriterConfig(
  env: Readonly<Record<string, string | undefined>>,
): ResultsWriterConfig {
  return parseEnvironment("results writer", RESULTS_WRITER_SETTINGS, env);
}
