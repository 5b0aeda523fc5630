/**
 * The table options of the commands that read a table of the stack (`outcomes`, `shadow`, `drift`,
 * `cost`, `jobs`): which table, and where — `--up-info` (a running `decisions up`'s saved line) or
 * `--endpoint-url` and `--region`. One place writes their flags, their usage lines and the client
 * they open, so every such command points at a stack the same way.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { readUpLine, type UpLine } from "../../operations/common/index.js";
import { createOutcomesClient } from "../../operations/outcomes/index.js";
import { UsageError } from "../errors.js";

/** `util.parseArgs` options of the table options. */
export const TABLE_OPTION_FLAGS = {
  table: { type: "string" },
  "endpoint-url": { type: "string" },
  region: { type: "string" },
  "up-info": { type: "string" },
} as const;

/** The names of {@link TABLE_OPTION_FLAGS} (for a sub-command's shared flags). */
export const TABLE_OPTION_NAMES: readonly string[] = Object.keys(TABLE_OPTION_FLAGS);

/** What to give to point a table command at a stack, as the missing-region message says it. */
export const POINT_AT_A_STACK =
  "give --up-info <file> with a running decisions up's JSON line (decisions up > up.json), or --endpoint-url http://127.0.0.1:<port> (its dynamodb_endpoint) for a local stack; for AWS, --region <region> or AWS_REGION";

/**
 * The usage lines of the table options, the descriptions starting in column `column`.
 *
 * @param table which table `--table` names and its default (as the local stack names it).
 */
export function tableOptionsUsage(table: { what: string; default: string }, column: number): string[] {
  const line = (flag: string, text: string) => `  ${flag.padEnd(column - 2)}${text}`;
  return [
    line(
      "--up-info <file>",
      "a running decisions up's JSON line, saved (decisions up > up.json): its DynamoDB endpoint, region and tables",
    ),
    line(
      "--table <name>",
      `the ${table.what} table (default "${table.default}", as the local stack names it)`,
    ),
    line(
      "--endpoint-url <url>",
      "a DynamoDB endpoint other than AWS's, e.g. http://127.0.0.1:<port> (DynamoDB Local)",
    ),
    line("--region <region>", "default: the SDK's configuration, or us-east-1 locally"),
  ];
}

/** The table options' values as parsed. */
export interface TableOptionValues {
  table?: string | undefined;
  "endpoint-url"?: string | undefined;
  region?: string | undefined;
  "up-info"?: string | undefined;
}

/** A client on the table a command reads, and the names of the stack's tables. */
export interface OpenedTable {
  client: DynamoDBDocumentClient;
  /** `--table`, else up's `table` (or `jobs_table` for the jobs table), else the default. */
  tableName: string;
  /** Up's `jobs_table` when `--up-info` names one, else "jobs" (`cost --job` reads it). */
  jobsTable: string;
}

/**
 * Opens a client on the table the options point at: `--up-info`'s endpoint, region and table
 * names, each replaced by `--endpoint-url`, `--region` or `--table` when given. Before any request,
 * the client's region is resolved, so a command without an endpoint or region says what to give
 * instead of the SDK's "Region is missing". `destroy()` the client when done.
 *
 * @param which the outcomes table (default) or the jobs table, and the default name of that table
 * @throws UsageError when no region can be found (the message names the options to give).
 * @throws UpInfoError when `--up-info`'s file is not up's line.
 */
export async function openTable(
  values: TableOptionValues,
  which: { table: "outcomes" | "jobs"; default: string },
  usage?: string,
): Promise<OpenedTable> {
  const up: UpLine | undefined =
    values["up-info"] === undefined ? undefined : await readUpLine(values["up-info"]);
  const endpointUrl = values["endpoint-url"] ?? up?.dynamodb_endpoint;
  const region = values.region ?? up?.region;
  const fromUp = which.table === "jobs" ? up?.jobs_table : up?.table;
  const client = createOutcomesClient({ region, endpointUrl });
  try {
    await client.config.region();
  } catch (error) {
    client.destroy();
    throw new UsageError(`no AWS region and no local stack to read: ${POINT_AT_A_STACK}`, {
      cause: error,
      usage,
    });
  }
  return {
    client,
    tableName: values.table ?? fromUp ?? which.default,
    jobsTable: up?.jobs_table ?? "jobs",
  };
}
