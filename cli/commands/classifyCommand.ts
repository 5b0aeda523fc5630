/**
 * `decisions classify <items.jsonl> --policy <name>`: offline batch classification in this process
 * — the pipeline's parsing, grouping, policy and outcome format, with the engine called directly
 * (no HTTP, no queue) — into a resumable JSONL file of outcomes, with progress and a summary.
 *
 * This module runs the steps; the flags, the usage text and each step are in `classify/`.
 */
import { availableParallelism } from "node:os";
import { AbortedError } from "../../adapter/engine/errors.js";
import type { WorkItemInput } from "../../core/pipeline/index.js";
import { writeClassifyResults } from "../../operations/classify/index.js";
import { DEFAULT_START_KIND } from "../constants.js";
import { ensureServedModel } from "../ensureServedModel.js";
import type { CliCommand, CliOutput } from "../types.js";
import { type DecidedItems, decideIntoOutcomes } from "./classify/decideIntoOutcomes.js";
import { describeSummary } from "./classify/describeSummary.js";
import { type ClassifyPlan, planClassify } from "./classify/planClassify.js";
import { readClassifyInputs } from "./classify/readClassifyInputs.js";
import { classifyUsage } from "./classify/usage.js";

/** Builds the `decisions classify` command writing to the given streams (tests pass their own). */
export function createClassifyCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const plan = planClassify(args);
      if (plan.mode === "help") {
        stdout.write(classifyUsage());
        return 0;
      }
      const inputs = await readClassifyInputs(plan);
      const modelPath = plan.model ?? (await generatedModel(stderr));
      const abort = new AbortController();
      const onSignal = (): void => abort.abort(new AbortedError("interrupted"));
      process.once("SIGINT", onSignal);
      let run: DecidedItems | undefined;
      try {
        const threads = plan.threads ?? availableParallelism();
        const { out, contextSize } = plan;
        run = await decideIntoOutcomes({
          ...inputs,
          out,
          modelPath,
          threads,
          contextSize,
          signal: abort.signal,
          stderr,
        });
      } finally {
        process.removeListener("SIGINT", onSignal);
      }
      if (run === undefined) return 130;
      await writeResults(plan, inputs.items, run, stdout);
      return 0;
    },
  };
}

/** Without `--model`: the generated default model, said on stderr to answer meaninglessly. */
async function generatedModel(stderr: CliOutput["stderr"]): Promise<string> {
  stderr.write(
    `no --model: using the generated ${DEFAULT_START_KIND} model; its weights are random, so the answers are meaningless (the pipeline is real)\n`,
  );
  return ensureServedModel(DEFAULT_START_KIND, stderr);
}

/** Writes the results file and manifest as a batch job does, and prints the summary and where they are. */
async function writeResults(
  plan: Extract<ClassifyPlan, { mode: "classify" }>,
  items: readonly WorkItemInput[],
  run: DecidedItems,
  stdout: CliOutput["stdout"],
): Promise<void> {
  const manifest = await writeClassifyResults({
    input: plan.input,
    lines: items.map((item) => (item.origin.kind === "file" ? item.origin.line : 0)),
    keys: run.summary.keys,
    outcomes: plan.out,
    results: plan.results,
    manifest: plan.manifest,
    startedAt: run.startedAt,
  });
  const seconds = (performance.now() - run.started) / 1000;
  stdout.write(describeSummary(run.summary, plan.policyName, plan.out, seconds));
  stdout.write(
    `results: ${plan.results} (${manifest.result_lines} line(s), ${manifest.status}); manifest: ${plan.manifest}\n`,
  );
}

/** The `decisions classify` command, writing to the process's stdout and stderr. */
export const classifyCommand: CliCommand = createClassifyCommand();
