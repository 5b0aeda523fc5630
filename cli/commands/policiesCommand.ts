/**
 * `decisions policies check|list`: checks policy files before they are deployed, with the loader the
 * functions run (`loadPolicies` for a folder, `loadPolicyFiles` for a file: the same per-file and
 * cross-file checks), and lists the policies of a folder. Every problem is printed — file, line,
 * column and field — and the exit code says whether all are valid, so a policy repository's own CI
 * can run `decisions policies check policies/`.
 */
import { stat } from "node:fs/promises";
import {
  formatPath,
  formatPolicyProblem,
  loadPolicies,
  loadPolicyFiles,
  PolicyLoadError,
  type PolicyProblem,
  type PolicySet,
} from "../../core/policy/index.js";
import { defaultPolicyDir } from "../../operations/common/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertText } from "../inertText.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

const USAGE = `usage:
  decisions policies check <file|folder> [<file|folder> …] [--json]
  decisions policies list [<folder>] [--json]

check   loads each folder as the decide and ingest functions do (every *.yaml / *.yml in it, not
        below it), or each file as it would load in its folder: YAML and schema, CEL type and cost
        checks, reserved chat text, the name matching the file name, unique names and event
        mappings. Prints every problem as file:line:column field: message. Exit 0 when every policy
        is valid, 1 otherwise.
list    the policies of a folder (default: this repository's policies/): name, version, questions,
        rules and the events they map. Exit 1, with every problem, when the folder does not load.

--json  one JSON document on stdout instead of text:
        check: {"valid": bool, "policies": [...], "problems": [{file, line, column, field, path, message}]}
        list:  {"valid": bool, "policies": [...], "problems": [...]}
`;

/** One policy as `check` and `list` print it. */
export interface PolicySummary {
  name: string;
  version: string;
  file: string;
  sha256: string;
  questions: { id: string; type: string }[];
  facts: string[];
  rules: string[];
  events: { source: string; detail_type: string }[];
}

/** What `--json` prints. */
export interface PoliciesReport {
  /** True when nothing was wrong. */
  valid: boolean;
  /** The policies that loaded (of the paths without problems). */
  policies: PolicySummary[];
  /** Every problem, in path then document order; `field` is the path written as `rules[0].when`. */
  problems: (PolicyProblem & { field: string })[];
}

/** Builds the `decisions policies` command writing to `stdout` (tests pass their own). */
export function createPoliciesCommand(output: Partial<Pick<CliOutput, "stdout">> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  return {
    async run(args) {
      const { values, positionals } = parseCommandArgs({
        args,
        options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
        allowPositionals: true,
        usage: USAGE,
      });
      const [action, ...paths] = positionals;
      if (values.help === true || action === "help") {
        stdout.write(USAGE);
        return 0;
      }
      if (action === "check") {
        if (paths.length === 0) throw new UsageError("check needs a policy file or folder", { usage: USAGE });
        return print(await checkPaths(paths), values.json === true, stdout);
      }
      if (action === "list") {
        if (paths.length > 1) throw new UsageError("list takes at most one folder", { usage: USAGE });
        return print(await checkPaths([paths[0] ?? defaultPolicyDir()], true), values.json === true, stdout);
      }
      throw new UsageError(
        action === undefined ? "name an action: check or list" : `unknown action "${action}"`,
        { usage: USAGE },
      );
    },
  };
}

/** The `decisions policies` command, writing to the process's stdout. */
export const policiesCommand: CliCommand = createPoliciesCommand();

/**
 * Loads each path as the functions would: a folder with `loadPolicies`, anything else as one file
 * with `loadPolicyFiles` (a missing path is then the loader's own "cannot read" problem). With
 * `folderOnly`, a path that is not a folder is a problem (`list` lists folders).
 */
async function checkPaths(paths: readonly string[], folderOnly = false): Promise<PoliciesReport> {
  const report: PoliciesReport = { valid: true, policies: [], problems: [] };
  for (const path of paths) {
    const isFolder = await stat(path).then(
      (found) => found.isDirectory(),
      () => false,
    );
    try {
      if (folderOnly && !isFolder) {
        throw new PolicyLoadError([
          { file: path, line: 1, column: 1, path: [], message: "not a folder of policy files" },
        ]);
      }
      const set = isFolder ? await loadPolicies(path) : await loadPolicyFiles([path]);
      report.policies.push(...summariesOf(set));
    } catch (error) {
      if (!(error instanceof PolicyLoadError)) throw error;
      report.valid = false;
      for (const problem of error.problems) {
        report.problems.push({ ...problem, field: formatPath(problem.path) });
      }
    }
  }
  return report;
}

function summariesOf(set: PolicySet): PolicySummary[] {
  return set.names().flatMap((name) => {
    const policy = set.get(name);
    if (policy === undefined) return [];
    return [
      {
        name: policy.name,
        version: policy.version,
        file: policy.file,
        sha256: policy.sha256,
        questions: policy.questions.map((question) => ({ id: question.id, type: question.type })),
        facts: Object.keys(policy.facts),
        rules: policy.rules.map((rule) => rule.name),
        events: policy.events.map((mapping) => ({ source: mapping.source, detail_type: mapping.detailType })),
      },
    ];
  });
}

/**
 * Writes the report; the exit code is 0 when valid. Text is passed through `inertText`: a policy's
 * names and messages quote the file's own text, which could hold control characters.
 */
function print(report: PoliciesReport, json: boolean, stdout: { write(text: string): unknown }): number {
  if (json) {
    stdout.write(`${inertJson(report, 2)}\n`);
    return report.valid ? 0 : 1;
  }
  const lines: string[] = [];
  for (const policy of report.policies) {
    const questions = policy.questions.map((question) => `${question.id} (${question.type})`).join(", ");
    const events = policy.events.map((mapping) => `${mapping.source} / ${mapping.detail_type}`).join(", ");
    lines.push(
      `ok ${policy.file}: ${policy.name} v${policy.version} — questions ${questions}; ` +
        `${policy.rules.length} rule${policy.rules.length === 1 ? "" : "s"}; ` +
        `events ${events === "" ? "none" : events}`,
    );
  }
  // Every problem, never "… and N more": the author fixes them in one pass.
  for (const problem of report.problems) lines.push(formatPolicyProblem(problem));
  const files = new Set(report.problems.map((problem) => problem.file)).size;
  lines.push(
    report.valid
      ? `${report.policies.length} polic${report.policies.length === 1 ? "y" : "ies"} valid`
      : `${report.problems.length} problem${report.problems.length === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}`,
  );
  stdout.write(`${lines.map((line) => inertText(line)).join("\n")}\n`);
  return report.valid ? 0 : 1;
}
