/**
 * `decisions outcomes list|show|export|review|redecide`: the outcomes table (DynamoDB Local or AWS)
 * as the people who own the decisions use it — the review queue of a policy, one outcome in full,
 * exports (JSONL, CSV, labelled data for `decisions calibrate`), recording a person's review, and
 * deciding again items that ended wrongly.
 */
import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isReviewOrder, REVIEW_ORDERS, type ReviewOrder } from "../../contract/outcome/reviewOrder.js";
import { FailureRecordStore } from "../../functions/failures/index.js";
import {
  OutcomeNotFoundError,
  OutcomesReader,
  reviewOutcome,
  STORED_OUTCOME_STATUSES,
  type StoredOutcome,
  type StoredOutcomeStatus,
} from "../../functions/outcomes/index.js";
import { defaultPolicyDir, loadNamedPolicy } from "../../operations/common/index.js";
import {
  createOutcomesClient,
  DEFAULT_ORDER_WINDOW,
  diffRedecided,
  type ExportCounts,
  type ExportFormat,
  exportOutcomes,
  formatRedecideDiff,
  formatReviewHistory,
  orderOutcomes,
  planRedecide,
  type RedecideSelector,
  readDecidedBy,
  sendRedecides,
  waitForRedecides,
} from "../../operations/outcomes/index.js";
import { createSqsClient } from "../../operations/queue/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertLines, inertText } from "../inertText.js";
import type { ParsedCommandArgs } from "../parseCommandArgs.js";
import { parseSubCommandArgs } from "../parseSubCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";
import { TABLE_OPTION_FLAGS, TABLE_OPTION_NAMES, tableOptionsUsage } from "./tableOptions.js";

const DEFAULT_TABLE = "outcomes";
const DEFAULT_LIMIT = 20;
/** A range redecide sends more than this many items only with --yes. */
const CONFIRM_OVER = 10;
/** Seconds a redecide with --diff waits for the new outcomes unless --wait says otherwise. */
const DIFF_WAIT_SECONDS = 300;
/** Item ids a dry run lists at most. */
const DRY_RUN_LISTED = 20;

const USAGE = `usage:
  decisions outcomes list   --policy <p> [--status <s> | --conflicts] [--order newest|margin|entropy [--window N]]
                            [--limit N] [--json] [table options]
  decisions outcomes show   <id> --policy <p> [table options]
  decisions outcomes export --policy <p> [--status <s>] [--format jsonl|csv] [--labelled] [--out <file>] [table options]
  decisions outcomes review <id> --policy <p> --set <question>=<answer> [--set …] [--by <name>]
                            [--expect-updated-at <time>] [--amend] [table options]
  decisions outcomes redecide <id> --policy <p> --queue-url <url> [--sqs-endpoint-url <url>] [--wait <s>]
                            [--replace-reviews] [table options]
  decisions outcomes redecide --policy <p> --status <s> --since <time> [--until <time>] [--replace-reviews]
                            (--dry-run | --queue-url <url> [--yes]) [--sqs-endpoint-url <url>] [--wait <s>] [table options]
  decisions outcomes redecide --policy <p> (--model-sha256 <old> | --policy-version <old>) [--status <s>]
                            [--since <time>] [--until <time>] [--replace-reviews] [--diff <file>]
                            (--dry-run | --queue-url <url> [--yes]) [--sqs-endpoint-url <url>] [--wait <s>] [table options]

list     the newest outcomes of a policy (default ${DEFAULT_LIMIT}), newest first: of one status through the
         by-status index (--status fallback: the items waiting for a person), or of every status.
         --conflicts: the outcomes under whose id a work item with another payload came (read from the
         whole policy). A rule's or a person's answer is shown with the model's probability of that
         answer (P=…), not the probability of the model's own answer.
         --order margin: the outcomes whose answer is nearest its question's threshold first; --order entropy:
         the most spread distributions first (ties: newest, then id). Such an order is computed over the
         newest --window outcomes read (default ${DEFAULT_ORDER_WINDOW}), which the output names: older ones are not ordered.
show     one outcome, as stored (JSON, on stdout), and its history on stderr: how it was decided and
         every review (who, when, which answers, what a partial review left open); the JSON
         holds the outcomes it replaced (history) and payload conflicts. For an item without an
         outcome, the decide function's failure record of it, when there is one: {"outcome": null,
         "last_failure": {reason, error, failure_class, attempts, failures, first_failed_at,
         last_failed_at, message_id, …}}, exit code 1.
export   every outcome of a policy (or of one status) as JSON Lines (default) or CSV, to --out or stdout.
         --labelled: the reviewed outcomes as labelled data for \`decisions calibrate\` (per line the policy,
         item id and, per question a person answered, the model's distribution and the person's answer).
review   records a person's answers on an outcome (typically a fallback one): each --set answer replaces
         the one that stood, the model's answer is kept beside it. The status becomes reviewed when every
         question that stood on its fallback (on an audit item: every model answer) has a person's answer;
         a partial review keeps the item in the review queue. Every review is kept (show prints them). Answers
         are checked against the policy's questions (choice: a label; score: a level; noul: yes/no).
         The write is refused if the outcome changed since it was read (--expect-updated-at: since the
         updated_at you saw in \`show\`). Changing a person's answer (a reviewed item, or a question a
         person answered) needs --amend and is recorded as an amendment; a reviewer's new answer to a
         question replaces only their own earlier one in the history. A review past the history's bound
         (20 entries, 64 KiB) is refused; no one's review is dropped.
redecide sends the work item kept in an outcome (up to 16 KiB) to the work queue again with the supersede
         marker set to the updated_at read: the decide path replaces the outcome only if it is still that
         version, and keeps the old one in the new outcome's history. With --status and --since (and --until,
         default now) every outcome of that status updated in the range; --dry-run counts and lists them;
         more than ${CONFIRM_OVER} are sent only with --yes. --wait <s>: wait up to s seconds for the new outcomes.
         An outcome a person reviewed (status reviewed, or a partial review) is not sent: it is listed
         and kept, unless --replace-reviews (the review then stays in the new outcome's history).
         --model-sha256 <old> / --policy-version <old> (both: both must hold): every outcome of the policy
         that model or policy version decided (of --status, updated from --since to --until, when given),
         after a promotion. --diff <file>: waits for the new outcomes (--wait, default ${DIFF_WAIT_SECONDS} s) and
         writes what changed as JSON: counts, every status change and, per question, every changed answer
         (id, old, new); items not decided again within the wait are listed as pending. A summary is printed.

statuses: ${STORED_OUTCOME_STATUSES.join(", ")}

table options:
${tableOptionsUsage({ what: "outcomes", default: DEFAULT_TABLE }, 25).join("\n")}
  --policies <dir>       the policy files (export --labelled, review; default: this repository's policies/)
`;

const FLAGS = {
  ...TABLE_OPTION_FLAGS,
  policy: { type: "string" },
  status: { type: "string" },
  limit: { type: "string" },
  json: { type: "boolean" },
  format: { type: "string" },
  labelled: { type: "boolean" },
  out: { type: "string" },
  set: { type: "string", multiple: true },
  by: { type: "string" },
  "expect-updated-at": { type: "string" },
  amend: { type: "boolean" },
  "replace-reviews": { type: "boolean" },
  conflicts: { type: "boolean" },
  order: { type: "string" },
  window: { type: "string" },
  "queue-url": { type: "string" },
  "sqs-endpoint-url": { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  "dry-run": { type: "boolean" },
  yes: { type: "boolean" },
  wait: { type: "string" },
  policies: { type: "string" },
  "model-sha256": { type: "string" },
  "policy-version": { type: "string" },
  diff: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Which flags each sub-command takes besides the table options. */
const SUB_FLAGS: Record<Sub, readonly string[]> = {
  list: ["policy", "status", "conflicts", "order", "window", "limit", "json"],
  show: ["policy"],
  export: ["policy", "status", "format", "labelled", "out"],
  review: ["policy", "set", "by", "expect-updated-at", "amend"],
  redecide: [
    "policy",
    "status",
    "since",
    "until",
    "dry-run",
    "yes",
    "queue-url",
    "sqs-endpoint-url",
    "wait",
    "replace-reviews",
    "model-sha256",
    "policy-version",
    "diff",
  ],
};
const SHARED_FLAGS = [...TABLE_OPTION_NAMES, "policies", "help"];

type Sub = "list" | "show" | "export" | "review" | "redecide";
type Values = ParsedCommandArgs<typeof FLAGS>["values"];

/** Builds the `decisions outcomes` command writing to the given streams (tests pass their own). */
export function createOutcomesCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const parsed = parseSubCommandArgs({
        command: "outcomes",
        args,
        options: FLAGS,
        subFlags: SUB_FLAGS,
        sharedFlags: SHARED_FLAGS,
        allowPositionals: true,
        usage: USAGE,
      });
      if (parsed.help) {
        stdout.write(USAGE);
        return 0;
      }
      const { sub, values, positionals } = parsed;
      const takesId =
        sub === "show" ||
        sub === "review" ||
        (sub === "redecide" && values.since === undefined && selectorOf(values) === undefined);
      if (positionals.length !== (takesId ? 1 : 0)) {
        throw new UsageError(takesId ? "exactly one outcome id is needed" : `"outcomes ${sub}" takes no id`, {
          usage: USAGE,
        });
      }
      const policy = values.policy;
      if (policy === undefined || policy === "")
        throw new UsageError("--policy is required", { usage: USAGE });
      const tableName = values.table ?? DEFAULT_TABLE;
      const client = createOutcomesClient({ region: values.region, endpointUrl: values["endpoint-url"] });
      const table = new OutcomesReader({ client, tableName });
      try {
        switch (sub) {
          case "list":
            return await list(table, policy, values, stdout);
          case "show":
            return await show(
              table,
              new FailureRecordStore({ client, tableName }),
              policy,
              positionals[0] ?? "",
              {
                stdout,
                stderr,
              },
            );
          case "export":
            return await exportTo(table, policy, values, stdout, stderr);
          case "review":
            return await review(client, tableName, policy, positionals[0] ?? "", values, stdout, stderr);
          case "redecide":
            return await redecide(table, policy, positionals[0], values, stdout, stderr);
        }
      } finally {
        client.destroy();
      }
    },
  };
}

/** The `decisions outcomes` command, writing to the process's stdout and stderr. */
export const outcomesCommand: CliCommand = createOutcomesCommand();

async function list(
  table: OutcomesReader,
  policy: string,
  values: Values,
  stdout: CliOutput["stdout"],
): Promise<number> {
  const status = readStatus(values.status);
  const limit = readLimit(values.limit);
  if (values.conflicts === true && status !== undefined)
    throw new UsageError("--conflicts lists outcomes of every status; leave out --status", { usage: USAGE });
  const order = readOrder(values.order);
  if (values.window !== undefined && order === "newest")
    throw new UsageError("--window bounds a worth order: give --order margin or entropy", { usage: USAGE });
  if (values.conflicts === true && order !== "newest")
    throw new UsageError("--conflicts lists newest first; leave out --order", { usage: USAGE });
  const window =
    order === "newest" ? limit : (readPositive("--window", values.window) ?? DEFAULT_ORDER_WINDOW);
  const read =
    values.conflicts === true
      ? await table.withConflicts(policy, { limit })
      : await table.newest(policy, {
          limit: window,
          ...(status === undefined ? {} : { status }),
        });
  const ordered = orderOutcomes(read, order).slice(0, limit);
  const outcomes = ordered.map((entry) => entry.outcome);
  if (values.json === true) {
    for (const outcome of outcomes) stdout.write(`${inertJson(outcome)}\n`);
    return 0;
  }
  // Ids, answers and reasons come from the table, written by producers: shown inert, so that none
  // can move the cursor or repaint a line.
  const what = inertText(
    `${policy}${status === undefined ? "" : ` with status ${status}`}${values.conflicts === true ? " with payload conflicts" : ""}`,
  );
  if (outcomes.length === 0) {
    stdout.write(`no outcomes of ${what} in ${table.tableName}\n`);
    return 0;
  }
  stdout.write(
    order === "newest"
      ? `${outcomes.length} newest outcome(s) of ${what}:\n`
      : `${outcomes.length} outcome(s) of ${what} by ${order}, ordered within the ${read.length} newest read (--window ${window}${read.length < window ? ": all of them" : ""}):\n`,
  );
  const ids = outcomes.map((outcome) => inertText(outcome.id));
  const idWidth = Math.min(40, Math.max(2, ...ids.map((id) => id.length)));
  outcomes.forEach((outcome, index) => {
    const answers = Object.entries(outcome.answers ?? {}).map(
      ([qid, answer]) => `${qid}=${answer.answer} (${describeAnswer(answer)})`,
    );
    const reason = outcome.reason === undefined ? "" : `  — ${outcome.reason.split("\n")[0]}`;
    const marks = [
      outcome.conflict_count !== undefined ? `  [${outcome.conflict_count} conflict(s)]` : "",
      outcome.history !== undefined ? `  [${outcome.history.length} earlier outcome(s)]` : "",
    ].join("");
    const worth = order === "newest" ? "" : `${order} ${Math.abs(ordered[index]?.worth ?? 0).toFixed(3)}  `;
    const rest = inertText(`${worth}${answers.join("  ")}${reason}${marks}`);
    stdout.write(
      `${inertText(outcome.updated_at)}  ${inertText(outcome.status).padEnd(10)}  ${(ids[index] ?? "").padEnd(idWidth)}  ${rest}\n`,
    );
  });
  return 0;
}

async function show(
  table: OutcomesReader,
  failures: FailureRecordStore,
  policy: string,
  id: string,
  { stdout, stderr }: CliOutput,
): Promise<number> {
  const outcome = await table.get(policy, id);
  if (outcome !== undefined) {
    stdout.write(`${inertJson(outcome, 2)}\n`);
    // The history for a person on stderr, so that stdout stays the outcome's JSON for tools.
    stderr.write(
      inertLines(
        `history of ${policy}/${id}:\n${formatReviewHistory(outcome)
          .map((line) => `  ${line}\n`)
          .join("")}`,
      ),
    );
    return 0;
  }
  // No outcome yet: the decide function's failure record says why the item is still undecided.
  const failure = await failures.byItem(policy, id);
  if (failure === undefined) throw new OutcomeNotFoundError(table.tableName, policy, id);
  stderr.write(
    `${inertText(`no outcome of ${policy}/${id} yet; the decide function gave its record back ${failure.failures} time(s), last at ${failure.last_failed_at}: ${failure.reason}`)}\n`,
  );
  stdout.write(`${inertJson({ policy, id, outcome: null, last_failure: failure }, 2)}\n`);
  return 1;
}

async function exportTo(
  table: OutcomesReader,
  policy: string,
  values: Values,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  const status = readStatus(values.status);
  const format = readFormat(values.format, values.labelled === true);
  if (format === "labelled" && status !== undefined && status !== "reviewed") {
    throw new UsageError("--labelled exports the reviewed outcomes; leave out --status", { usage: USAGE });
  }
  const definition =
    format === "labelled" || format === "csv"
      ? await loadNamedPolicy(values.policies ?? defaultPolicyDir(), policy).catch((error: unknown) => {
          // CSV only orders its columns by the policy: without it, they follow the outcomes.
          if (format === "csv") return undefined;
          throw error;
        })
      : undefined;
  const counts: ExportCounts = { read: 0, written: 0 };
  const chunks = exportOutcomes(
    {
      table,
      policy,
      format,
      ...(status === undefined ? {} : { status }),
      ...(definition ? { definition } : {}),
    },
    counts,
  );
  if (values.out === undefined || values.out === "-") {
    for await (const chunk of chunks) stdout.write(chunk);
  } else {
    await pipeline(Readable.from(chunks), createWriteStream(values.out));
  }
  const what =
    format === "labelled" ? "labelled decision(s)" : format === "csv" ? "CSV row(s)" : "outcome(s)";
  stderr.write(
    `exported ${counts.written} ${what} of ${policy} (${counts.read} read)${values.out && values.out !== "-" ? ` to ${values.out}` : ""}\n`,
  );
  return 0;
}

async function review(
  client: DynamoDBDocumentClient,
  tableName: string,
  policyName: string,
  id: string,
  values: Values,
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

/**
 * How `list` shows an answer: the model's own answer with its probability; a rule's, the fallback's
 * or a person's with the model's probability of that same answer (`P=…`, from the distribution),
 * or none when the distribution does not hold it — never the probability of another answer.
 */
function describeAnswer(answer: NonNullable<StoredOutcome["answers"]>[string]): string {
  if (answer.source === "model") return answer.probability.toFixed(2);
  const own = answer.distribution[String(answer.answer)];
  return own === undefined ? answer.source : `${answer.source}, P=${own.toFixed(2)}`;
}

async function redecide(
  table: OutcomesReader,
  policy: string,
  id: string | undefined,
  values: Values,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  let chosen: StoredOutcome[];
  const selector = selectorOf(values);
  if (id === undefined && selector !== undefined) {
    chosen = await readDecidedBy(table, policy, selector, {
      status: readStatus(values.status),
      since: values.since === undefined ? undefined : readTime(values.since, "--since"),
      until: values.until === undefined ? undefined : readTime(values.until, "--until"),
    });
    stdout.write(
      inertLines(`${chosen.length} outcome(s) of ${policy} decided by ${describeSelector(selector)}\n`),
    );
  } else if (id !== undefined) {
    for (const flag of ["status", "until", "dry-run", "yes", "diff"] as const) {
      if (values[flag] !== undefined)
        throw new UsageError(`--${flag} selects a range: give --since instead of an id`, { usage: USAGE });
    }
    const outcome = await table.get(policy, id);
    if (outcome === undefined) throw new OutcomeNotFoundError(table.tableName, policy, id);
    chosen = [outcome];
  } else {
    const status = readStatus(values.status);
    if (status === undefined) throw new UsageError("a range redecide needs --status", { usage: USAGE });
    const since = readTime(values.since, "--since");
    const until = values.until === undefined ? new Date().toISOString() : readTime(values.until, "--until");
    chosen = [];
    for await (const page of table.inRange(policy, status, { since, until })) chosen.push(...page);
    stdout.write(
      inertLines(
        `${chosen.length} outcome(s) of ${policy} with status ${status} updated from ${since} to ${until}\n`,
      ),
    );
  }
  const replaceReviews = values["replace-reviews"] === true;
  const plan = planRedecide(chosen, { replaceReviews });
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
  const sqs = createSqsClient({ region: values.region, endpointUrl: values["sqs-endpoint-url"] }, queueUrl);
  let sent: Awaited<ReturnType<typeof sendRedecides>>;
  try {
    sent = await sendRedecides(plan.ready, { sqs, queueUrl, replaceReviews });
  } finally {
    sqs.destroy();
  }
  const failed = sent.filter((entry) => !entry.ok);
  for (const entry of failed) {
    if (!entry.ok)
      stderr.write(inertLines(`not sent: ${entry.policy}/${entry.id}: ${entry.code}: ${entry.message}\n`));
  }
  stdout.write(
    `sent ${sent.length - failed.length} item(s) to be decided again; each replaces the outcome at the updated_at read, which stays in its history\n`,
  );
  let redecided = new Map<string, StoredOutcome>();
  if (waitSeconds > 0) {
    const waited = await waitForRedecides(table, sent, waitSeconds, (key, outcome) =>
      stdout.write(inertLines(`${key}: ${outcome.status} (updated_at ${outcome.updated_at})\n`)),
    );
    for (const key of waited.notRedecided)
      stdout.write(inertLines(`${key}: not decided again within ${waitSeconds} s\n`));
    redecided = waited.redecided;
  }
  if (diffFile !== undefined) {
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
  return failed.length > 0 || plan.unsendable.length > 0 || plan.reviewed.length > 0 ? 1 : 0;
}

/** The model or policy version a redecide selects by, when --model-sha256 or --policy-version is given. */
function selectorOf(values: Values): RedecideSelector | undefined {
  const model = values["model-sha256"];
  const version = values["policy-version"];
  if (model === undefined && version === undefined) return undefined;
  if (model !== undefined && !/^[0-9a-fA-F]{64}$/.test(model))
    throw new UsageError(`--model-sha256 must be 64 hex digits, got "${model}"`, { usage: USAGE });
  if (version === "") throw new UsageError("--policy-version must not be empty", { usage: USAGE });
  return {
    ...(model === undefined ? {} : { modelSha256: model.toLowerCase() }),
    ...(version === undefined ? {} : { policyVersion: version }),
  };
}

function describeSelector(selector: RedecideSelector): string {
  return [
    selector.modelSha256 === undefined ? "" : `model ${selector.modelSha256}`,
    selector.policyVersion === undefined ? "" : `policy version ${selector.policyVersion}`,
  ]
    .filter((part) => part !== "")
    .join(" and ");
}

function selectedOf(selector: RedecideSelector | undefined, values: Values): Record<string, string> {
  return {
    ...(selector?.modelSha256 === undefined ? {} : { model_sha256: selector.modelSha256 }),
    ...(selector?.policyVersion === undefined ? {} : { policy_version: selector.policyVersion }),
    ...(values.status === undefined ? {} : { status: values.status }),
    ...(values.since === undefined ? {} : { since: values.since }),
  };
}

function readTime(text: string | undefined, flag: string): string {
  if (text === undefined) throw new UsageError(`${flag} is required`, { usage: USAGE });
  const time = Date.parse(text);
  if (!Number.isFinite(time))
    throw new UsageError(`${flag} must be an ISO-8601 time, got "${text}"`, { usage: USAGE });
  return new Date(time).toISOString();
}

function readWait(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 3600)
    throw new UsageError(`--wait must be whole seconds from 1 to 3600, got "${text}"`, { usage: USAGE });
  return value;
}

function describeReview(outcome: StoredOutcome): string {
  const review = outcome.review;
  const parts = Object.keys(review?.answers ?? {}).map((qid) => {
    const answer = outcome.answers?.[qid];
    return `${qid}=${answer?.answer} (model: ${answer?.model_answer}, was ${review?.previous_answers[qid]?.answer})`;
  });
  return `${parts.join(", ")}; status ${outcome.status} (was ${review?.previous_status}), updated_at ${outcome.updated_at}`;
}

function readAnswers(sets: readonly string[]): Record<string, string> {
  if (sets.length === 0)
    throw new UsageError("give at least one --set <question>=<answer>", { usage: USAGE });
  const answers: Record<string, string> = {};
  for (const set of sets) {
    const equals = set.indexOf("=");
    if (equals <= 0) throw new UsageError(`--set wants <question>=<answer>, got "${set}"`, { usage: USAGE });
    const qid = set.slice(0, equals);
    if (Object.hasOwn(answers, qid)) throw new UsageError(`--set ${qid} is given twice`, { usage: USAGE });
    answers[qid] = set.slice(equals + 1);
  }
  return answers;
}

function readStatus(text: string | undefined): StoredOutcomeStatus | undefined {
  if (text === undefined) return undefined;
  if ((STORED_OUTCOME_STATUSES as readonly string[]).includes(text)) return text as StoredOutcomeStatus;
  throw new UsageError(`--status must be one of ${STORED_OUTCOME_STATUSES.join(", ")}, got "${text}"`, {
    usage: USAGE,
  });
}

function readLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 10_000) {
    throw new UsageError(`--limit must be an integer from 1 to 10000, got "${text}"`, { usage: USAGE });
  }
  return value;
}

function readOrder(text: string | undefined): ReviewOrder {
  if (text === undefined) return "newest";
  if (!isReviewOrder(text))
    throw new UsageError(`--order takes ${REVIEW_ORDERS.join(", ")}; got "${text}"`, { usage: USAGE });
  return text;
}

function readPositive(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 100_000)
    throw new UsageError(`${flag} must be an integer from 1 to 100000, got "${text}"`, { usage: USAGE });
  return value;
}

function readFormat(text: string | undefined, labelled: boolean): ExportFormat {
  if (labelled) {
    if (text !== undefined && text !== "jsonl")
      throw new UsageError("--labelled writes JSON Lines", { usage: USAGE });
    return "labelled";
  }
  if (text === undefined || text === "jsonl" || text === "csv") return text ?? "jsonl";
  throw new UsageError(`--format must be jsonl or csv, got "${text}"`, { usage: USAGE });
}
