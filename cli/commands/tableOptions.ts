/**
 * The table options of the commands that read a table of the stack (`outcomes`, `jobs`): which
 * table, which DynamoDB endpoint, which region. One place writes their flags and usage lines.
 */

/** `util.parseArgs` options of the table options. */
export const TABLE_OPTION_FLAGS = {
  table: { type: "string" },
  "endpoint-url": { type: "string" },
  region: { type: "string" },
} as const;

/** The names of {@link TABLE_OPTION_FLAGS} (for a sub-command's shared flags). */
export const TABLE_OPTION_NAMES: readonly string[] = Object.keys(TABLE_OPTION_FLAGS);

/**
 * The usage lines of the table options, the descriptions starting in column `column`.
 *
 * @param table which table `--table` names and its default (as the local stack names it).
 */
export function tableOptionsUsage(table: { what: string; default: string }, column: number): string[] {
  const line = (flag: string, text: string) => `  ${flag.padEnd(column - 2)}${text}`;
  return [
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
