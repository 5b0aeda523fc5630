/**
 * `decisions outcomes review`: records a person's answers on an outcome, checked against the
 * policy's questions, and prints what changed and what a partial review left open.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { reviewOutcome, type StoredOutcome } from "../../../core/outcomes/index.js";
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
  if (result.policyChanged) {
    stderr.write(
      inertLines(
        `note: ${policyName}/${id} was decided under another version of the policy than ${policy.file} (version ${policy.version}); its answers were checked against this one\n`,
      ),
    );
  }
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

function describeReview(outcome: StoredOutcome): string {
  const review = outcome.review;
  const parts = Object.keys(review?.answers ?? {}).map((qid) => {
    const answer = outcome.answers?.[qid];
    return `${qid}=${answer?.answer} (model: ${answer?.model_answer}, was ${review?.previous_answers[qid]?.answer})`;
  });
  return `${parts.join(", ")}; status ${outcome.status} (was ${review?.previous_status}), updated_at ${outcome.updated_at}`;
}
