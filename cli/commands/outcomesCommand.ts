/**
 * `decisions outcomes list|show|export|review|redecide`: the outcomes table (DynamoDB Local or AWS)
 * as the people who own the decisions use it — the review queue of a policy, one outcome in full,
 * exports (JSONL, CSV, labelled data for `decisions calibrate`), recording a person's review, and
 * deciding again items that ended wrongly. This module parses the flags and hands each sub-command
 * to its module in `outcomes/`; the usage text and the flag table are there too.
 */
import { FailureRecordStore } from "../../core/failures/index.js";
import { OutcomesReader } from "../../core/outcomes/index.js";
import { UsageError } from "../errors.js";
import { parseSubCommandArgs } from "../parseSubCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";
import { namedPolicy } from "./namedPolicy.js";
import { DEFAULT_TABLE } from "./outcomes/constants.js";
import { exportOutcomesTo } from "./outcomes/exportOutcomesTo.js";
import { readTime, selectorOf } from "./outcomes/flagReaders.js";
import { OUTCOMES_FLAGS, OUTCOMES_SHARED_FLAGS, OUTCOMES_SUB_FLAGS } from "./outcomes/flags.js";
import { listOutcomes } from "./outcomes/listOutcomes.js";
import { recordReview } from "./outcomes/recordReview.js";
import { redecideOutcomes } from "./outcomes/redecideOutcomes.js";
import { showOutcome } from "./outcomes/showOutcome.js";
import { OUTCOMES_USAGE as USAGE } from "./outcomes/usage.js";
import { openTable } from "./tableOptions.js";

/** Builds the `decisions outcomes` command writing to the given streams (tests pass their own). */
export function createOutcomesCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const parsed = parseSubCommandArgs({
        command: "outcomes",
        args,
        options: OUTCOMES_FLAGS,
        subFlags: OUTCOMES_SUB_FLAGS,
        sharedFlags: OUTCOMES_SHARED_FLAGS,
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
      // Every flag is read before the table is opened: a mistake is told first, whatever the stack.
      for (const flag of ["since", "until"] as const)
        if (values[flag] !== undefined) readTime(values[flag], `--${flag}`);
      const definition = await namedPolicy(policy, values.policies, USAGE);
      const { client, tableName } = await openTable(
        values,
        { table: "outcomes", default: DEFAULT_TABLE },
        USAGE,
      );
      const table = new OutcomesReader({ client, tableName });
      try {
        switch (sub) {
          case "list":
            return await listOutcomes(table, policy, values, stdout, { client, policy: definition });
          case "show":
            return await showOutcome(
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
            return await exportOutcomesTo(table, policy, values, stdout, stderr);
          case "review":
            return await recordReview(
              client,
              tableName,
              policy,
              positionals[0] ?? "",
              values,
              stdout,
              stderr,
            );
          case "redecide":
            return await redecideOutcomes(table, policy, positionals[0], values, stdout, stderr);
        }
      } finally {
        client.destroy();
      }
    },
  };
}

/** The `decisions outcomes` command, writing to the process's stdout and stderr. */
export const outcomesCommand: CliCommand = createOutcomesCommand();
