/**
 * What `decisions classify` is asked to do, decided from its flags alone: print the usage, or
 * classify one items file into the outcomes, results and manifest files named here. Nothing is
 * read or loaded here; `classifyCommand` does the run.
 */
import { basename, dirname, join } from "node:path";
import { UsageError } from "../../errors.js";
import { parseCommandArgs } from "../../parseCommandArgs.js";
import { classifyUsage } from "./usage.js";

/** The engine's context when `--context-size` is not given: the longest prompt, in tokens. */
const DEFAULT_CONTEXT_SIZE = 8192;

/** What {@link planClassify} decided. */
export type ClassifyPlan =
  | { readonly mode: "help" }
  | {
      readonly mode: "classify";
      /** The items file (the positional argument). */
      readonly input: string;
      /** `--policy`: the policy asked for, and the one items without a `policy` field get. */
      readonly policyName: string;
      /** `--model`; undefined for the generated default model. */
      readonly model: string | undefined;
      /** `--out` (default `<items>.outcomes.jsonl` beside the input): the resumable outcomes. */
      readonly out: string;
      /** `--results` (default `<items>.results.jsonl` beside the input). */
      readonly results: string;
      /** The manifest: `--results` without `.results.jsonl` (or `.jsonl`), ending `.manifest.json`. */
      readonly manifest: string;
      /** `--policies`; undefined for this repository's policies/. */
      readonly policyDir: string | undefined;
      /** `--threads`; undefined for every core. */
      readonly threads: number | undefined;
      /** `--context-size` (default 8192). */
      readonly contextSize: number;
    };

/**
 * Decides from `decisions classify`'s arguments what to run: one items file, a non-empty
 * `--policy`, whole positive numbers, and a results file (and manifest) other than the input and
 * the outcomes. Pure: it reads no file.
 *
 * @throws UsageError, carrying the usage text, for an unknown flag or a missing value, a missing
 *   or extra file, no `--policy`, a number that is not a positive integer, or clashing files.
 * @example
 * planClassify(["in/items.jsonl", "--policy", "p"]); // out: "in/items.outcomes.jsonl", manifest: "in/items.manifest.json", …
 */
export function planClassify(args: readonly string[]): ClassifyPlan {
  const usage = classifyUsage();
  const { values, positionals } = parseCommandArgs({
    args,
    options: {
      policy: { type: "string" },
      model: { type: "string" },
      out: { type: "string" },
      results: { type: "string" },
      policies: { type: "string" },
      threads: { type: "string" },
      "context-size": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    usage,
  });
  if (values.help === true) return { mode: "help" };
  const [input, ...extra] = positionals;
  if (input === undefined || extra.length > 0)
    throw new UsageError("exactly one items file is needed", { usage });
  const policyName = values.policy;
  if (policyName === undefined || policyName === "") throw new UsageError("--policy is required", { usage });
  const threads = readPositive(values.threads, "--threads", usage);
  const contextSize = readPositive(values["context-size"], "--context-size", usage) ?? DEFAULT_CONTEXT_SIZE;
  const base = join(dirname(input), basename(input).replace(/\.jsonl?$/i, ""));
  const out = values.out ?? `${base}.outcomes.jsonl`;
  const results = values.results ?? `${base}.results.jsonl`;
  const manifest = `${results.replace(/(\.results)?\.jsonl?$/i, "")}.manifest.json`;
  if ([out, input].includes(results) || [out, input, results].includes(manifest))
    throw new UsageError("--results must name a file other than the input and --out", { usage });
  const { model, policies: policyDir } = values;
  return {
    mode: "classify",
    input,
    policyName,
    model,
    out,
    results,
    manifest,
    policyDir,
    threads,
    contextSize,
  };
}

/** A whole number above 0 given as `flag`, or undefined when the flag was not given. */
function readPositive(text: string | undefined, flag: string, usage: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1)
    throw new UsageError(`${flag} must be a positive integer, got "${text}"`, { usage });
  return value;
}
