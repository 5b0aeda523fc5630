/**
 * `decisions compare <a> <b> [--json]`: two sets of decisions of the same items side by side —
 * typically two `decisions classify` runs of one file with two models or two builds (the CPU-vs-GPU
 * comparison), or two outcome exports. The comparison is the one `decisions shadow report` prints.
 */
import {
  compareDecisions,
  formatComparison,
  LISTED_DISAGREEMENTS,
} from "../../evaluation/comparison/index.js";
import { readResultsDecisions } from "../../operations/compare/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertLines } from "../inertText.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import { readNumberFlag } from "../readNumberFlag.js";
import type { CliCommand, CliOutput } from "../types.js";

const USAGE = `usage:
  decisions compare <a.jsonl> <b.jsonl> [--listed <n>] [--json]

Compares two results files of \`decisions classify\` (or two \`decisions outcomes export\` files) item by
item (by policy and id): per question the agreement of the answers that stand and of the model's own
answers, the share that moves from an automated answer to review (fallback) and back, each side's
review load, the shift of the model's confidence histogram (10 bins), and, where a person answered
(reviewed outcomes of an export, in <a>), each side's accuracy with a 95% Wilson interval; per item the
status transitions and the rules that fire on one side only. Items only one file holds are counted,
not compared. Per question the models' own answers' agreement comes first, then the agreement of the
answers that stand (after rules and fallbacks: two runs that both fell back agree there although their
models did not).

--listed <n>  items whose answers differ listed per question, at most (default 10); a cut list says how
        many it left out

--json  one JSON object on stdout: {"a", "b", "sampled", "only_a", "only_b", "status", "review_load",
        "rules", "questions": {<question>: {"agreement", "agreed", "compared", "model_agreement",
        "to_review", "to_automated", "review_load", "confidence", "accuracy"?, "disagreements"}}}
`;

/** Builds the `decisions compare` command writing to `stdout` (tests pass their own). */
export function createCompareCommand(output: Partial<Pick<CliOutput, "stdout">> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  return {
    async run(args) {
      const { values, positionals } = parseCommandArgs({
        args,
        options: {
          json: { type: "boolean" },
          listed: { type: "string" },
          help: { type: "boolean", short: "h" },
        },
        allowPositionals: true,
        usage: USAGE,
      });
      if (values.help === true) {
        stdout.write(USAGE);
        return 0;
      }
      const [a, b] = positionals;
      if (positionals.length !== 2 || a === undefined || b === undefined)
        throw new UsageError("give exactly two results files", { usage: USAGE });
      const listed =
        values.listed === undefined
          ? LISTED_DISAGREEMENTS
          : readNumberFlag("--listed", values.listed, { min: 1, max: 100_000, integer: true }, USAGE);
      const [left, right] = await Promise.all([readResultsDecisions(a), readResultsDecisions(b)]);
      const report = compareDecisions({ a: left.decisions, b: right.decisions, labels: left.labels, listed });
      if (values.json === true) {
        stdout.write(`${inertJson({ a, b, ...report })}\n`);
        return 0;
      }
      const more = `--listed <n> lists up to n (now ${listed})`;
      stdout.write(inertLines(`${formatComparison(report, { a, b, more }).join("\n")}\n`));
      return 0;
    },
  };
}

/** The `decisions compare` command, writing to the process's stdout. */
export const compareCommand: CliCommand = createCompareCommand();
