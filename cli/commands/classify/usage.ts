/** The usage text of `decisions classify`. */
import { DEFAULT_START_KIND } from "../../constants.js";

/** Usage text of `decisions classify`: printed by `--help`, carried by its usage errors. */
export function classifyUsage(): string {
  return [
    "usage: decisions classify <items.jsonl> --policy <name> [--model <file.gguf>] [--out <outcomes.jsonl>]",
    "                          [--results <results.jsonl>]",
    "",
    "Decides every work item of a JSONL file in this process, the way the pipeline does (same parsing,",
    "shared-state grouping, prompt, policy rules and outcome format), and appends one outcome per line",
    "to --out. Rerunning skips the items --out already holds, so an interrupted run resumes; a killed",
    "run loses at most the item in flight. Items without a `policy` field get --policy.",
    "Once every item has its outcome it writes the results as a batch job does (one line per input line,",
    "in input order: line, id, policy, status, per question answer and probability, reason) to --results",
    "and a manifest (counts, timings, policy versions, models) beside it (<results>.manifest.json).",
    "",
    "options:",
    "  --policy <name>        the policy to decide with (required)",
    `  --model <file.gguf>    the model (default: a generated ${DEFAULT_START_KIND} with random weights:`,
    "                         the answers are meaningless, the pipeline is real)",
    "  --out <file>           the outcomes (default: <items>.outcomes.jsonl beside the input)",
    "  --results <file>       the results (default: <items>.results.jsonl beside the input); the manifest",
    "                         goes to the same name ending .manifest.json",
    "  --policies <dir>       the policy files (default: this repository's policies/)",
    "  --threads <n>          CPU threads for the engine (default: every core)",
    "  --context-size <n>     the engine's context in tokens: the longest prompt (default 8192)",
    "",
  ].join("\n");
}
