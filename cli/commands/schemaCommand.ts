/**
 * `decisions schema <name>`: prints the JSON Schema of one wire format (from the zod schemas of
 * `adapter/wire`), so clients in other languages can validate what they send and receive.
 */
import { jsonSchemaOf, WIRE_SCHEMA_NAMES, type WireSchemaName } from "../../contract/wire/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

function usage(): string {
  return [
    "usage: decisions schema <name>",
    "",
    "Prints the JSON Schema of a wire format on stdout. Names:",
    ...WIRE_SCHEMA_NAMES.map((name) => `  ${name}`),
    "",
  ].join("\n");
}

function isSchemaName(name: string): name is WireSchemaName {
  return (WIRE_SCHEMA_NAMES as readonly string[]).includes(name);
}

/** Builds the `decisions schema` command writing to `stdout` (tests pass their own). */
export function createSchemaCommand(output: Partial<Pick<CliOutput, "stdout">> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  return {
    async run(args) {
      const { values, positionals } = parseCommandArgs({
        args,
        options: { help: { type: "boolean", short: "h" } },
        allowPositionals: true,
        usage: usage(),
      });
      if (values.help === true) {
        stdout.write(usage());
        return 0;
      }
      const [name, ...extra] = positionals;
      if (name === undefined || extra.length > 0) {
        throw new UsageError("exactly one schema name is needed", { usage: usage() });
      }
      if (!isSchemaName(name)) {
        throw new UsageError(`no schema named "${name}"; one of ${WIRE_SCHEMA_NAMES.join(", ")}`);
      }
      stdout.write(`${JSON.stringify(jsonSchemaOf(name), null, 2)}\n`);
      return 0;
    },
  };
}

/** The `decisions schema` command, writing to the process's stdout. */
export const schemaCommand: CliCommand = createSchemaCommand();
