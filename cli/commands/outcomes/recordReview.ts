/**
 * `decisions outcomes review`: records a person's answers on an outcome, checked against the
 * policy's questions, and prints what changed and what a partial review left open.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { reviewOutcome, type StoredOutcome } from "../../../core/outcomes/index.js";
import type { Policy } from "../../../core/policy/index.js";
import { defaultPolicyDir, loadNamedPolicy } from "../../../operations/common/index.js";
import { inertLines } from "../../inertText.js";
import type { CliOutput } from "../../types.js";
import { readAnswers } from "./flagReaders.js";
import type { OutcomesValues } from "./flags.js";

/**
 * Records the review the --set flags give on `policyName`/`id`; returns the exit code (0).
 * @throws UsageError when no --set is given or one is malformed; what `reviewOutcome` throws
 * (a stale or refused review, an unknown answer).
 */
export async function recordReview(
  client: DynamoDBDocumentClient,
  tableName: string,
  policyName: string,
  id: string,
  values: OutcomesValues,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  const answers = readAnswers(values.set ?? []);
  const policy = await loadNamedPolicy(values.policies ?? defaultPolicyDir(), policyName);
  const result = await reviewOutcome({
    client,
    tableName,
    policy,
    id,
    answers,
    ...(values.by !== undefined ? { by: values.by } : {}),
    ...(values["expect-updated-at"] !== undefined ? { expectUpdatedAt: values["expect-updated-at"] } : {}),
    ...(values.amend === true ? { amend: true } : {}),
  });
  if (result.policyChanged)
    stderr.write(inertLines(`note: ${describePolicyChange(result.outcome, policy)}\n`));
  const verb = result.outcome.review?.amendment === true ? "amended" : "reviewed";
  stdout.write(inertLines(`${verb} ${policyName}/${id}: ${describeReview(result.outcome)}\n`));
  if (result.remaining.length > 0)
    stdout.write(
      inertLines(
        `partial review: ${result.remaining.join(", ")} still ${result.remaining.length === 1 ? "has" : "have"} no person's answer; the item stays in the review queue\n`,
      ),
    );
  return 0;
}

/**
 * What differs between the policy an outcome was decided under and the file its review was checked
 * against: the version when the numbers differ; the same version number with other content (the
 * files' sha256) when they do not — and how to check against the other file.
 */
export function describePolicyChange(
  outcome: Pick<StoredOutcome, "policy" | "id" | "policy_version" | "policy_sha256">,
  policy: Pick<Policy, "file" | "version" | "sha256">,
): string {
  const decided =
    outcome.policy_version === undefined ? "an unrecorded version" : `version ${outcome.policy_version}`;
  const short = (sha: string | undefined) => (sha === undefined ? "unrecorded" : sha.slice(0, 12));
  const what =
    outcome.policy_version !== undefined && String(outcome.policy_version) === String(policy.version)
      ? `both are version ${policy.version}, but their content differs (sha256 ${short(outcome.policy_sha256)}… decided, ${short(policy.sha256)}… in ${policy.file}): the file changed without a new version`
      : `it was decided under ${decided} (sha256 ${short(outcome.policy_sha256)}…), ${policy.file} is version ${policy.version} (sha256 ${short(policy.sha256)}…)`;
  return `${outcome.policy}/${outcome.id}'s policy is not the file its answers were checked against: ${what}; give --policies <dir> with the file it was decided under to check against that one`;
}

function describeReview(outcome: StoredOutcome): string {
  const review = outcome.review;
  const parts = Object.keys(review?.answers ?? {}).map((qid) => {
    const answer = outcome.answers?.[qid];
    return `${qid}=${answer?.answer} (model: ${answer?.model_answer}, was ${review?.previous_answers[qid]?.answer})`;
  });
  return `${parts.join(", ")}; status ${outcome.status} (was ${review?.previous_status}), updated_at ${outcome.updated_at}`;
}
