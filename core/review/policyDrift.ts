import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ConsoleDriftReport } from "../../contract/outcome/reviewViews.js";
import {
  declaredQuestionsOf,
  measurePolicyDrift,
  resolveDriftOptions,
  rollingWindows,
  windowsSince,
} from "../drift/index.js";
import { OutcomesReader } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";
import { ReviewRequestError } from "./errors.js";
import { sinceOf } from "./sinceOf.js";

/** What the policy page asks: `since` (ISO-8601) for a window from then to now; default the last hour. */
export interface PolicyDriftQuery {
  since?: string | undefined;
}

/**
 * The drift picture of a policy's page (`GET /api/policies/{policy}/drift?since=`): per question the
 * answer shares and the confidence histogram of the baseline and of the window, the distance and
 * whether it is over the threshold, the options that moved and the flagged ones — the report of
 * `decisions drift --json` with the drift monitor's defaults (the last hour against the 24 before,
 * threshold 0.1 bits), the policy's own options listed even when never chosen, and the settings
 * the page names when a number is missing (the answers each side needs, the share that counts as
 * moved).
 * @throws ReviewRequestError for a `since` that is not a time (years 1970 to 9999; `parseInstant`) before now.
 */
export async function readPolicyDrift(input: {
  client: DynamoDBDocumentClient;
  tableName: string;
  policy: Policy;
  now: Date;
  query: PolicyDriftQuery;
}): Promise<ConsoleDriftReport> {
  const options = resolveDriftOptions();
  const now = input.now.getTime();
  let windows = rollingWindows(now, options);
  if (input.query.since !== undefined && input.query.since !== "") {
    const since = sinceOf(input.query.since).ms;
    if (!(since < now))
      throw new ReviewRequestError(
        ["query", "since"],
        "give an ISO-8601 time before now, e.g. 2026-12-03T10:00:00Z",
      );
    windows = windowsSince(since, now, options);
  }
  const report = await measurePolicyDrift({
    reader: new OutcomesReader({ client: input.client, tableName: input.tableName }),
    policy: input.policy.name,
    windows,
    options,
    declared: declaredQuestionsOf(input.policy),
  });
  return { ...report, settings: { min_outcomes: options.minOutcomes, moved_share: options.movedShare } };
}
