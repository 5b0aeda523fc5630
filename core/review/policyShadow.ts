import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { OutcomesReader, ShadowRecordStore } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";
import { readShadowReport, SeveralCandidatesError, type ShadowReport } from "../shadow/index.js";
import { ReviewRequestError } from "./errors.js";
import { sinceOf } from "./sinceOf.js";

/** What the policy page asks: `since` (ISO-8601) for records from then on, `candidate` to choose one. Default: every record, the one candidate. */
export interface PolicyShadowQuery {
  since?: string | undefined;
  candidate?: string | undefined;
}

/**
 * The shadow picture of a policy's page (`GET /api/policies/{policy}/shadow?since=&candidate=`): the
 * report `decisions shadow report --json` prints, computed by the same `readShadowReport` — per
 * question the agreement, the moves to and from review, the review load at the candidate's
 * thresholds, the confidence histograms of live and candidate and, where people answered, accuracy
 * with Wilson intervals; per item status transitions and rules firing differently.
 * @throws ReviewRequestError for a `since` that is not a time (years 1970 to 9999; `parseInstant`), or records of several candidates without `candidate`.
 */
export async function readPolicyShadow(input: {
  client: DynamoDBDocumentClient;
  tableName: string;
  policy: Policy;
  query: PolicyShadowQuery;
}): Promise<ShadowReport> {
  let since: string | undefined;
  if (input.query.since !== undefined && input.query.since !== "") {
    since = sinceOf(input.query.since).iso;
  }
  const candidate = input.query.candidate === "" ? undefined : input.query.candidate;
  const { client, tableName } = input;
  try {
    return await readShadowReport({
      shadows: new ShadowRecordStore({ client, tableName }),
      outcomes: new OutcomesReader({ client, tableName }),
      policy: input.policy.name,
      ...(since === undefined ? {} : { since }),
      ...(candidate === undefined ? {} : { candidate }),
    });
  } catch (error) {
    if (error instanceof SeveralCandidatesError)
      throw new ReviewRequestError(["query", "candidate"], error.message, { cause: error });
    throw error;
  }
}
