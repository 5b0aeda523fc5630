/**
 * `decisions cost`: what decisions cost at the endpoint — tokens and endpoint seconds per decision,
 * and the price of 1,000 decisions at an instance price — for a policy's outcomes (since a time)
 * or a batch job's lines, overall, by policy and by lane.
 */
import { RetryPolicy } from "../../core/common/RetryPolicy.js";
import { JobLedger } from "../../core/jobs/index.js";
import { OutcomesReader } from "../../core/outcomes/index.js";
import {
  type CostLine,
  type CostRecord,
  type CostReport,
  CostTally,
  jobCostRecords,
  policyCostRecords,
} from "../../operations/cost/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertText } from "../inertText.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import { type NumberFlagRange, readNumberFlag } from "../readNumberFlag.js";
import { readTimeFlag } from "../readTimeFlag.js";
import type { CliCommand, CliOutput } from "../types.js";
import { namedPolicy, policiesUsageLine } from "./namedPolicy.js";
import { openTable, TABLE_OPTION_FLAGS, tableOptionsUsage } from "./tableOptions.js";

const DEFAULT_TABLE = "outcomes";
const DEFAULT_JOBS_TABLE = "jobs";
/** The instance prices taken: the dearest endpoint instance costs well under this per hour. */
const INSTANCE_PRICE_RANGE: NumberFlagRange = { min: 0, max: 10_000, unit: "US dollars per instance hour" };

const USAGE = `usage:
  decisions cost --policy <p> [--since <time>] --instance-price <usd/h> [--json] [table options]
  decisions cost --job <job id> --instance-price <usd/h> [--json] [table options]

Tokens and endpoint seconds per decision, and the price of 1,000 decisions at the given price of
one endpoint instance per hour, overall, by policy and by lane. Each decision counts its share of
the endpoint request it was decided in: the request's tokens and time ÷ the items that shared it.
The price is that of the endpoint time the decisions took (endpoint seconds × price per second):
calls served side by side on one instance cost less, an instance left idle costs more.

--policy <p>             the policy's outcomes (its partition of the outcomes table, page by page)
--since <time>           with --policy: only outcomes created at or after this ISO-8601 time (a date, or a
                         date and time with its zone; years 1970 to 9999)
--job <job id>           the lines of a batch job (its line items in the jobs table)
--instance-price <usd/h> US dollars per endpoint instance hour, a decimal number from 0 to 10000 (e.g. the
                         instance type's on-demand price)
--json                   one JSON object: decisions, tokens_per_decision, evaluated_tokens_per_decision,
                         cached_tokens_per_decision, endpoint_seconds_per_decision, usd_per_1000,
                         cache_share, instance_price_usd_per_hour, without_usage, by_policy, by_lane

The cache share is an estimate of the share of prompt evaluation that reuse saved: cached ÷
(cached + evaluated) tokens, as if every token cost the same time. Outcomes without token counts
(rejected before or by the endpoint, decided before outcomes recorded them) are counted as left out.

table options:
${tableOptionsUsage({ what: "outcomes", default: DEFAULT_TABLE }, 25).join("\n")}
  --jobs-table <name>    with --job: the jobs table (default "${DEFAULT_JOBS_TABLE}", as the local stack names it)
${policiesUsageLine(25, "with --policy, the policy is looked up there")}
`;

const FLAGS = {
  ...TABLE_OPTION_FLAGS,
  policy: { type: "string" },
  since: { type: "string" },
  job: { type: "string" },
  "instance-price": { type: "string" },
  "jobs-table": { type: "string" },
  policies: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Builds the `decisions cost` command writing to the given streams (tests pass their own). */
export function createCostCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  return {
    async run(args) {
      const { values } = parseCommandArgs({ args, options: FLAGS, usage: USAGE });
      if (values.help === true) {
        stdout.write(USAGE);
        return 0;
      }
      const policy = nonEmpty(values.policy, "--policy");
      const jobId = nonEmpty(values.job, "--job");
      if ((policy === undefined) === (jobId === undefined))
        throw new UsageError("give either --policy or --job", { usage: USAGE });
      if (jobId !== undefined && values.since !== undefined)
        throw new UsageError("--since selects a policy's outcomes: give it with --policy", { usage: USAGE });
      if (policy !== undefined && values["jobs-table"] !== undefined)
        throw new UsageError("--jobs-table is read with --job", { usage: USAGE });
      if (jobId !== undefined && values.policies !== undefined)
        throw new UsageError("--policies is read with --policy", { usage: USAGE });
      const price = readPrice(values["instance-price"]);
      const since = values.since === undefined ? undefined : readTimeFlag("--since", values.since, USAGE).iso;

      if (policy !== undefined) await namedPolicy(policy, values.policies, USAGE);
      const { client, tableName, jobsTable } = await openTable(
        values,
        { table: "outcomes", default: DEFAULT_TABLE },
        USAGE,
      );
      try {
        const records: AsyncIterable<CostRecord> =
          jobId !== undefined
            ? jobCostRecords(
                new JobLedger({
                  client,
                  jobsTable: values["jobs-table"] ?? jobsTable,
                  retry: new RetryPolicy(),
                }),
                jobId,
              )
            : policyCostRecords(
                new OutcomesReader({ client, tableName }),
                policy as string,
                since === undefined ? {} : { since },
              );
        const tally = new CostTally();
        for await (const record of records) tally.add(record.policy, record.usage);
        const report = tally.report(price);
        const what =
          jobId !== undefined
            ? `job ${jobId}`
            : `policy ${policy}${since === undefined ? "" : ` since ${since}`}`;
        stdout.write(values.json === true ? `${inertJson(report)}\n` : describeReport(report, what));
        return 0;
      } finally {
        client.destroy();
      }
    },
  };
}

/** The `decisions cost` command, writing to the process's stdout. */
export const costCommand: CliCommand = createCostCommand();

function nonEmpty(text: string | undefined, flag: string): string | undefined {
  if (text === "") throw new UsageError(`${flag} must not be empty`, { usage: USAGE });
  return text;
}

function readPrice(text: string | undefined): number {
  if (text === undefined)
    throw new UsageError("--instance-price is required (US dollars per instance hour)", { usage: USAGE });
  return readNumberFlag("--instance-price", text, INSTANCE_PRICE_RANGE, USAGE);
}

function describeReport(report: CostReport, what: string): string {
  const price = `$${report.instance_price_usd_per_hour}/h per instance`;
  if (report.decisions === 0) {
    return inertText(
      `no decision of ${what} records its endpoint request's tokens (${report.without_usage} left out: rejected, or decided before outcomes recorded tokens)\n`,
    );
  }
  const header = [
    "",
    "decisions",
    "tokens/decision",
    "evaluated",
    "cached",
    "endpoint s/decision",
    "$/1,000 decisions",
    "cache share*",
  ];
  const row = (name: string, line: CostLine) => [
    name,
    String(line.decisions),
    line.tokens_per_decision.toFixed(1),
    line.evaluated_tokens_per_decision.toFixed(1),
    line.cached_tokens_per_decision.toFixed(1),
    line.endpoint_seconds_per_decision.toFixed(4),
    line.usd_per_1000.toFixed(4),
    line.cache_share === null ? "-" : `${(line.cache_share * 100).toFixed(1)} %`,
  ];
  const rows = [
    header,
    row("all", report),
    ...Object.entries(report.by_policy).map(([name, line]) => row(`policy ${name}`, line)),
    ...Object.entries(report.by_lane).map(([name, line]) => row(`lane ${name}`, line)),
  ];
  const widths = header.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? "").length)));
  const table = rows.map((cells) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  "),
  );
  const lines = [
    `cost of ${report.decisions} decision(s) of ${what} at ${price}`,
    ...table,
    "* an estimate of the prompt evaluation that reuse saved: cached ÷ (cached + evaluated) tokens",
    ...(report.without_usage > 0
      ? [
          `${report.without_usage} outcome(s) without token counts left out (rejected, or decided before outcomes recorded tokens)`,
        ]
      : []),
  ];
  // Policy names and job ids come from the table: inert.
  return `${lines.map((line) => inertText(line)).join("\n")}\n`;
}
