/**
 * `decisions shadow report`: what a candidate (another model endpoint and/or another version of a
 * policy) answered for the sampled items, compared with the live outcomes of those items — before
 * the candidate decides anything. Reads the shadow records the decide function keeps in the
 * outcomes table (DynamoDB Local or AWS).
 */

import { OutcomesReader, ShadowRecordStore } from "../../core/outcomes/index.js";
import { LISTED_FAILURES, readShadowReport } from "../../core/shadow/index.js";
import { formatComparison } from "../../evaluation/comparison/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertLines } from "../inertText.js";
import { parseSubCommandArgs } from "../parseSubCommandArgs.js";
import { readNumberFlag } from "../readNumberFlag.js";
import { readTimeFlag } from "../readTimeFlag.js";
import type { CliCommand, CliOutput } from "../types.js";
import { namedPolicy, policiesUsageLine } from "./namedPolicy.js";
import { openTable, TABLE_OPTION_FLAGS, TABLE_OPTION_NAMES, tableOptionsUsage } from "./tableOptions.js";

const DEFAULT_TABLE = "outcomes";

const USAGE = `usage:
  decisions shadow report --policy <p> [--since <time>] [--until <time>] [--candidate <name>] [--listed <n>] [--json]
                          [--policies <dir>] [table options]

report   compares a candidate's shadow records of a policy (the newest per item, written from --since to
         --until, default all) with the live outcome of each item: per question the agreement of the
         answers, the share that would move from an automated answer to review (fallback) and back, the
         review load the candidate would create at its own thresholds, the shift of the model's
         confidence histogram, and, where a person reviewed or audited the item, the accuracy of the live
         and the candidate model's answers with 95% Wilson intervals; per item the status transitions and
         the rules that fire differently. Live outcomes count as the pipeline decided them (before any
         review). Records whose candidate failed are counted apart. With shadow records of several
         candidates, --candidate chooses one. Per question the models' own answers' agreement comes first,
         then the agreement of the answers that stand (after rules and fallbacks: two sides that both fell
         back agree there although their models did not). The items whose answers differ and the failed
         records are listed up to --listed <n> each (default 10); a cut list says how many it left out.
         --json: one JSON object: {"policy", "candidate", "records", "failed", "missing_live", "sampled",
         "only_a", "only_b", "status", "review_load", "rules", "questions": {<question>: {"agreement", …}}}
         (a: live, b: candidate; "sampled": the items compared).

table options:
${tableOptionsUsage({ what: "outcomes", default: DEFAULT_TABLE }, 25).join("\n")}
${policiesUsageLine(25)}
`;

const FLAGS = {
  ...TABLE_OPTION_FLAGS,
  policy: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  candidate: { type: "string" },
  policies: { type: "string" },
  listed: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Sub = "report";
const SUB_FLAGS: Record<Sub, readonly string[]> = {
  report: ["policy", "since", "until", "candidate", "json", "policies", "listed"],
};

/** Builds the `decisions shadow` command writing to the given streams (tests pass their own). */
export function createShadowCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const parsed = parseSubCommandArgs({
        command: "shadow",
        args,
        options: FLAGS,
        subFlags: SUB_FLAGS,
        sharedFlags: [...TABLE_OPTION_NAMES, "help"],
        usage: USAGE,
      });
      if (parsed.help) {
        stdout.write(USAGE);
        return 0;
      }
      const { values } = parsed;
      const policy = values.policy;
      if (policy === undefined || policy === "")
        throw new UsageError("--policy is required", { usage: USAGE });
      const since = values.since === undefined ? undefined : readTime(values.since, "--since");
      const until = values.until === undefined ? undefined : readTime(values.until, "--until");
      const listed =
        values.listed === undefined
          ? undefined
          : readNumberFlag("--listed", values.listed, { min: 1, max: 100_000, integer: true }, USAGE);
      await namedPolicy(policy, values.policies, USAGE);
      const { client, tableName } = await openTable(
        values,
        { table: "outcomes", default: DEFAULT_TABLE },
        USAGE,
      );
      try {
        const report = await readShadowReport({
          shadows: new ShadowRecordStore({ client, tableName }),
          outcomes: new OutcomesReader({ client, tableName }),
          policy,
          ...(since === undefined ? {} : { since }),
          ...(until === undefined ? {} : { until }),
          ...(values.candidate === undefined ? {} : { candidate: values.candidate }),
          ...(listed === undefined ? {} : { listed }),
        });
        if (values.json === true) {
          const { failures: _listed, ...printed } = report;
          stdout.write(`${inertJson(printed)}\n`);
          return 0;
        }
        if (report.records === 0) {
          stdout.write(
            inertLines(
              `no shadow records of ${policy}${since === undefined ? "" : ` since ${since}`} in ${tableName}\n`,
            ),
          );
          return 0;
        }
        const name = report.candidate?.name ?? "candidate";
        const what = [
          report.candidate?.model_sha256 === undefined
            ? ""
            : `model ${report.candidate.model_sha256.slice(0, 12)}`,
          report.candidate?.policy_version === undefined
            ? ""
            : `policy version ${report.candidate.policy_version}`,
        ]
          .filter((part) => part !== "")
          .join(", ");
        stdout.write(
          inertLines(
            `shadow report of ${policy}: candidate ${name}${what === "" ? "" : ` (${what})`}, ${report.records} record(s), ${report.failed} failed, ${report.missing_live} without a live outcome\n`,
          ),
        );
        const more = `--listed <n> lists up to n (now ${listed ?? LISTED_FAILURES})`;
        stdout.write(inertLines(`${formatComparison(report, { a: "live", b: name, more }).join("\n")}\n`));
        for (const failure of report.failures)
          stderr.write(
            inertLines(`candidate failed on ${failure.id}: ${failure.error}: ${failure.reason}\n`),
          );
        if (report.failed > report.failures.length)
          stderr.write(
            `… and ${report.failed - report.failures.length} more failed (the first ${report.failures.length} of ${report.failed} listed; ${more})\n`,
          );
        return 0;
      } finally {
        client.destroy();
      }
    },
  };
}

/** The `decisions shadow` command, writing to the process's stdout and stderr. */
export const shadowCommand: CliCommand = createShadowCommand();

function readTime(text: string, flag: string): string {
  return readTimeFlag(flag, text, USAGE).iso;
}
