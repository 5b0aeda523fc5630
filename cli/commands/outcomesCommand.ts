/**
 * `decisions outcomes list|show|export|review`: the outcomes table (DynamoDB Local or AWS) as the
 * people who own the decisions use it — the review queue of a policy, one outcome in full, exports
 * (JSONL, CSV, labelled data for `decisions calibrate`) and recording a person's review.
 */
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  STORED_OUTCOME_STATUSES,
  type StoredOutcome,
  type StoredOutcomeStatus,
} from "../../functions/outcomes/index.js";
import {
  createOutcomesClient,
  type ExportCounts,
  type ExportFormat,
  exportOutcomes,
  formatReviewHistory,
  OutcomeNotFoundError,
  OutcomesReader,
  reviewOutcome,
} from "../../operations/outcomes/index.js";
import { defaultPolicyDir, loadNamedPolicy } from "../../operations/shared/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertLines, inertText } from "../inertText.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

const DEFAULT_TABLE = "outcomes";
const DEFAULT_LIMIT = 20;

const USAGE = `usage:
  decisions outcomes list   --policy <p> [--status <s>] [--limit N] [--json] [table options]
  decisions outcomes show   <id> --policy <p> [table options]
  decisions outcomes export --policy <p> [--status <s>] [--format jsonl|csv] [--labelled] [--out <file>] [table options]
  decisions outcomes review <id> --policy <p> --set <question>=<answer> [--set …] [--by <name>]
                            [--expect-updated-at <time>] [table options]

list     the newest outcomes of a policy (default ${DEFAULT_LIMIT}), newest first: of one status through the
         by-status index (--status fallback: the items waiting for a person), or of every status.
show     one outcome, as stored (JSON, on stdout), and its history on stderr: how it was decided and
         every review (who, when, which answers, what a partial review left open).
export   every outcome of a policy (or of one status) as JSON Lines (default) or CSV, to --out or stdout.
         --labelled: the reviewed outcomes as labelled data for \`decisions calibrate\` (per line the policy,
         item id and, per question a person answered, the model's distribution and the person's answer).
review   records a person's answers on an outcome (typically a fallback one): each --set answer replaces
         the one that stood, the model's answer is kept beside it. The status becomes reviewed when every
         question that stood on its fallback (on an audit item: every model answer) has a person's answer;
         a partial review keeps the item in the review queue. Every review is kept (show prints them). Answers
         are checked against the policy's questions (choice: a label; score: a level; noul: yes/no).
         The write is refused if the outcome changed since it was read (--expect-updated-at: since the
         updated_at you saw in \`show\`).

statuses: ${STORED_OUTCOME_STATUSES.join(", ")}

table options:
  --table <name>         the outcomes table (default "${DEFAULT_TABLE}", as the local stack names it)
  --endpoint-url <url>   a DynamoDB endpoint other than AWS's, e.g. http://127.0.0.1:<port> (DynamoDB Local)
  --region <region>      default: the SDK's configuration, or us-east-1 locally
  --policies <dir>       the policy files (export --labelled, review; default: this repository's policies/)
`;

const FLAGS = {
  table: { type: "string" },
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
  policies: { type: "string" },
  "endpoint-url": { type: "string" },
  region: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Which flags each sub-command takes besides the table options. */
const SUB_FLAGS: Record<Sub, readonly string[]> = {
  list: ["policy", "status", "limit", "json"],
  show: ["policy"],
  export: ["policy", "status", "format", "labelled", "out"],
  review: ["policy", "set", "by", "expect-updated-at"],
};
const TABLE_FLAGS = ["table", "endpoint-url", "region", "policies", "help"];

type Sub = "list" | "show" | "export" | "review";
type Values = ReturnType<typeof parse>["values"];

function parse(args: string[]) {
  return parseCommandArgs({ args, options: FLAGS, allowPositionals: true, usage: USAGE });
}

/** Builds the `decisions outcomes` command writing to the given streams (tests pass their own). */
export function createOutcomesCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const [sub, ...rest] = args;
      if (sub === "help" || sub === "--help" || sub === "-h") {
        stdout.write(USAGE);
        return 0;
      }
      if (sub !== "list" && sub !== "show" && sub !== "export" && sub !== "review") {
        throw new UsageError(sub === undefined ? "a sub-command is needed" : `unknown sub-command "${sub}"`, {
          usage: USAGE,
        });
      }
      const { values, positionals } = parse(rest);
      if (values.help === true) {
        stdout.write(USAGE);
        return 0;
      }
      for (const flag of Object.keys(values)) {
        if (!SUB_FLAGS[sub].includes(flag) && !TABLE_FLAGS.includes(flag)) {
          throw new UsageError(`--${flag} is not an option of "outcomes ${sub}"`, { usage: USAGE });
        }
      }
      const takesId = sub === "show" || sub === "review";
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
            return await show(table, policy, positionals[0] ?? "", stdout, stderr);
          case "export":
            return await exportTo(table, policy, values, stdout, stderr);
          case "review":
            return await review(client, tableName, policy, positionals[0] ?? "", values, stdout, stderr);
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
  const outcomes = await table.newest(policy, { limit, ...(status === undefined ? {} : { status }) });
  if (values.json === true) {
    for (const outcome of outcomes) stdout.write(`${inertJson(outcome)}\n`);
    return 0;
  }
  // Ids, answers and reasons come from the table, written by producers: shown inert, so that none
  // can move the cursor or repaint a line.
  const what = inertText(`${policy}${status === undefined ? "" : ` with status ${status}`}`);
  if (outcomes.length === 0) {
    stdout.write(`no outcomes of ${what} in ${table.tableName}\n`);
    return 0;
  }
  stdout.write(`${outcomes.length} newest outcome(s) of ${what}:\n`);
  const ids = outcomes.map((outcome) => inertText(outcome.id));
  const idWidth = Math.min(40, Math.max(2, ...ids.map((id) => id.length)));
  outcomes.forEach((outcome, index) => {
    const answers = Object.entries(outcome.answers ?? {}).map(
      ([qid, answer]) =>
        `${qid}=${answer.answer} (${answer.probability.toFixed(2)}${answer.source === "model" ? "" : `, ${answer.source}`})`,
    );
    const reason = outcome.reason === undefined ? "" : `  — ${outcome.reason.split("\n")[0]}`;
    const rest = inertText(`${answers.join("  ")}${reason}`);
    stdout.write(
      `${inertText(outcome.updated_at)}  ${inertText(outcome.status).padEnd(10)}  ${(ids[index] ?? "").padEnd(idWidth)}  ${rest}\n`,
    );
  });
  return 0;
}

async function show(
  table: OutcomesReader,
  policy: string,
  id: string,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  const outcome = await table.get(policy, id);
  if (outcome === undefined) throw new OutcomeNotFoundError(table.tableName, policy, id);
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
  });
  if (result.policyChanged) {
    stderr.write(
      inertLines(
        `note: ${policyName}/${id} was decided under another version of the policy than ${policy.file} (version ${policy.version}); its answers were checked against this one\n`,
      ),
    );
  }
  stdout.write(inertLines(`reviewed ${policyName}/${id}: ${describeReview(result.outcome)}\n`));
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

function readFormat(text: string | undefined, labelled: boolean): ExportFormat {
  if (labelled) {
    if (text !== undefined && text !== "jsonl")
      throw new UsageError("--labelled writes JSON Lines", { usage: USAGE });
    return "labelled";
  }
  if (text === undefined || text === "jsonl" || text === "csv") return text ?? "jsonl";
  throw new UsageError(`--format must be jsonl or csv, got "${text}"`, { usage: USAGE });
}
