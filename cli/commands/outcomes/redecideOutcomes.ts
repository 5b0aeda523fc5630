/**
 * `decisions outcomes redecide`: sends the work items kept in outcomes to the work queue again, each
 * marked to supersede the outcome read. Its steps: select the outcomes ({@link selectRedecided}), plan
 * (hold back reviewed and unsendable ones), confirm (--dry-run, --yes), send, wait for the new
 * outcomes (--wait) and write what changed (--diff), on `operations/outcomes`.
 */
import { writeFile } from "node:fs/promises";
import type { OutcomesReader, StoredOutcome } from "../../../core/outcomes/index.js";
import {
  diffRedecided,
  formatRedecideDiff,
  planRedecide,
  type RedecidePlan,
  type RedecideSelector,
  type RedecideSent,
  sendRedecides,
  waitForRedecides,
} from "../../../operations/outcomes/index.js";
import { createSqsClient } from "../../../operations/queue/index.js";
import { UsageError } from "../../errors.js";
import { inertLines, inertText } from "../../inertText.js";
import type { CliOutput } from "../../types.js";
import { CONFIRM_OVER, DIFF_WAIT_SECONDS, DRY_RUN_LISTED } from "./constants.js";
import { readWait } from "./flagReaders.js";
import type { OutcomesValues } from "./flags.js";
import { selectRedecided } from "./selectRedecided.js";
import { OUTCOMES_USAGE as USAGE } from "./usage.js";

/**
 * Runs a redecide as `values` asks; returns the exit code: 0, or 1 when an outcome was not sent
 * (held back as reviewed or unsendable, refused by the queue) or more than {@link CONFIRM_OVER}
 * wait for --yes.
 * @throws UsageError when the flags do not select or --queue-url is missing where items are sent.
 */
export async function redecideOutcomes(
  table: OutcomesReader,
  policy: string,
  id: string | undefined,
  values: OutcomesValues,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  const { chosen, selector } = await selectRedecided(table, policy, id, values, stdout);
  const replaceReviews = values["replace-reviews"] === true;
  const plan = planRedecide(chosen, { replaceReviews });
  reportHeldBack(plan, stderr);
  if (values["dry-run"] === true) {
    const listed = plan.ready.slice(0, DRY_RUN_LISTED).map((outcome) => inertText(outcome.id));
    stdout.write(
      `dry run: ${plan.ready.length} would be sent again, ${plan.unsendable.length} cannot be${plan.reviewed.length > 0 ? `, ${plan.reviewed.length} reviewed kept` : ""}${listed.length > 0 ? `: ${listed.join(", ")}${plan.ready.length > listed.length ? ", …" : ""}` : ""}\n`,
    );
    return 0;
  }
  if (plan.ready.length > CONFIRM_OVER && values.yes !== true) {
    stderr.write(
      `${plan.ready.length} outcomes would be sent again (more than ${CONFIRM_OVER}); nothing sent. See them with --dry-run, send them with --yes.\n`,
    );
    return 1;
  }
  if (plan.ready.length === 0) {
    stderr.write("nothing to send\n");
    return plan.unsendable.length > 0 || plan.reviewed.length > 0 ? 1 : 0;
  }
  const queueUrl = values["queue-url"];
  if (queueUrl === undefined || queueUrl === "")
    throw new UsageError("--queue-url is required to send (or --dry-run)", { usage: USAGE });
  const diffFile = values.diff;
  const waitSeconds =
    values.wait === undefined ? (diffFile === undefined ? 0 : DIFF_WAIT_SECONDS) : readWait(values.wait);
  const sent = await send(plan.ready, queueUrl, values, replaceReviews);
  const failed = sent.filter((entry) => !entry.ok);
  for (const entry of failed) {
    if (!entry.ok)
      stderr.write(inertLines(`not sent: ${entry.policy}/${entry.id}: ${entry.code}: ${entry.message}\n`));
  }
  stdout.write(
    `sent ${sent.length - failed.length} item(s) to be decided again; each replaces the outcome at the updated_at read, which stays in its history\n`,
  );
  const redecided =
    waitSeconds > 0 ? await waitForNew(table, sent, waitSeconds, stdout) : new Map<string, StoredOutcome>();
  if (diffFile !== undefined) {
    await writeDiff(diffFile, { policy, selector, values, plan, sent, redecided }, stdout);
  }
  return failed.length > 0 || plan.unsendable.length > 0 || plan.reviewed.length > 0 ? 1 : 0;
}

/** Names on `stderr` each outcome the plan holds back: unsendable, or reviewed by a person. */
function reportHeldBack(plan: RedecidePlan, stderr: CliOutput["stderr"]): void {
  for (const unsendable of plan.unsendable) {
    stderr.write(inertLines(`not sent: ${unsendable.policy}/${unsendable.id}: ${unsendable.reason}\n`));
  }
  for (const kept of plan.reviewed) {
    stderr.write(
      inertLines(
        `kept: ${kept.policy}/${kept.id}: a person reviewed it (${kept.status}${kept.review?.by === undefined ? "" : `, by ${kept.review.by}`}); --replace-reviews sends it again, its review kept in the history\n`,
      ),
    );
  }
}

/** Sends the ready outcomes' items to the work queue, with a client that lives for this send only. */
async function send(
  ready: readonly StoredOutcome[],
  queueUrl: string,
  values: OutcomesValues,
  replaceReviews: boolean,
): Promise<RedecideSent[]> {
  const sqs = createSqsClient({ region: values.region, endpointUrl: values["sqs-endpoint-url"] }, queueUrl);
  try {
    return await sendRedecides(ready, { sqs, queueUrl, replaceReviews });
  } finally {
    sqs.destroy();
  }
}

/** Waits up to `waitSeconds` for the sent items' new outcomes, printing each as it comes and those that did not. */
async function waitForNew(
  table: OutcomesReader,
  sent: RedecideSent[],
  waitSeconds: number,
  stdout: CliOutput["stdout"],
): Promise<Map<string, StoredOutcome>> {
  const waited = await waitForRedecides(table, sent, waitSeconds, (key, outcome) =>
    stdout.write(inertLines(`${key}: ${outcome.status} (updated_at ${outcome.updated_at})\n`)),
  );
  for (const key of waited.notRedecided)
    stdout.write(inertLines(`${key}: not decided again within ${waitSeconds} s\n`));
  return waited.redecided;
}

/** What a redecide's --diff compares: the plan, what was sent and the new outcomes that came. */
interface DiffInputs {
  policy: string;
  selector: RedecideSelector | undefined;
  values: OutcomesValues;
  plan: RedecidePlan;
  sent: RedecideSent[];
  redecided: Map<string, StoredOutcome>;
}

/** Writes the diff of the sent outcomes and their new ones to `diffFile` as JSON, and its summary on `stdout`. */
async function writeDiff(
  diffFile: string,
  { policy, selector, values, plan, sent, redecided }: DiffInputs,
  stdout: CliOutput["stdout"],
): Promise<void> {
  const sentKeys = new Set(sent.filter((entry) => entry.ok).map((entry) => entry.id));
  const diff = diffRedecided({
    policy,
    selected: selectedOf(selector, values),
    pairs: plan.ready
      .filter((outcome) => sentKeys.has(outcome.id))
      .map((outcome) => ({ before: outcome, after: redecided.get(outcome.id) })),
    keptReviewed: plan.reviewed,
  });
  await writeFile(diffFile, `${JSON.stringify(diff, null, 2)}\n`);
  stdout.write(inertLines(`${formatRedecideDiff(diff).join("\n")}\ndiff written to ${diffFile}\n`));
}

function selectedOf(selector: RedecideSelector | undefined, values: OutcomesValues): Record<string, string> {
  return {
    ...(selector?.modelSha256 === undefined ? {} : { model_sha256: selector.modelSha256 }),
    ...(selector?.policyVersion === undefined ? {} : { policy_version: selector.policyVersion }),
    ...(values.status === undefined ? {} : { status: values.status }),
    ...(values.since === undefined ? {} : { since: values.since }),
  };
}
