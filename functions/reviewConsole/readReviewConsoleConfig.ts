import { REVIEW_CONSOLE_SETTINGS } from "../../contract/index.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/** The deployed review console API function's configuration, read once at cold start. */
export interface ReviewConsoleConfig {
  /** `OUTCOMES_TABLE` (required): the outcomes table's name. */
  outcomesTable: string;
  /** `POLICY_DIR`: the folder of `*.yaml` policies. Default: the caller's default (beside the bundle). */
  policyDir: string;
}

/**
 * Reads and validates the function's environment (each variable's parser, default and meaning are
 * its entry in `contract/settings/reviewConsoleSettings.ts`). The DynamoDB client reads its own
 * standard variables (`AWS_REGION`, `AWS_ENDPOINT_URL_DYNAMODB`).
 *
 * @param defaultPolicyDir - `POLICY_DIR` when unset.
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readReviewConsoleConfig(
  env: Readonly<Record<string, string | undefined>>,
  defaultPolicyDir: string,
): ReviewConsoleConfig {
  const values = parseEnvironment("review-console", REVIEW_CONSOLE_SETTINGS, env);
  return { outcomesTable: values.outcomesTable, policyDir: values.policyDir || defaultPolicyDir };
}
