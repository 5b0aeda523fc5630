/**
 * The deployed review console's API function (behind API Gateway's HTTP API and its Cognito JWT
 * authorizer): configuration read once at cold start, policies loaded once, then the adapter onto
 * the router `decisions up` serves locally. See `readReviewConsoleConfig` for the variables.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { loadPolicies } from "../../core/policy/index.js";
import { ReviewApi } from "../../core/review/ReviewApi.js";
import { createReviewConsoleHandler } from "./createReviewConsoleHandler.js";
import { readReviewConsoleConfig } from "./readReviewConsoleConfig.js";

const here = dirname(fileURLToPath(import.meta.url));
// Bundled, the policies are copied beside the bundle; in the repository they are at its root.
const defaultPolicyDir = existsSync(join(here, "policies"))
  ? join(here, "policies")
  : join(here, "../../policies");

const config = readReviewConsoleConfig(process.env, defaultPolicyDir);

/** The Lambda handler (API Gateway HTTP API event, payload 2.0 → JSON answer). */
export const handler = createReviewConsoleHandler(
  new ReviewApi({
    client: DynamoDBDocumentClient.from(new DynamoDBClient({}), {
      marshallOptions: { removeUndefinedValues: true },
    }),
    tableName: config.outcomesTable,
    policies: await loadPolicies(config.policyDir),
  }),
);
