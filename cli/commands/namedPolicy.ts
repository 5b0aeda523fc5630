/**
 * The policy an owner's command names with `--policy`, looked up in the policy files (`--policies`,
 * default this repository's policies/) before any table is read: a typo is told as an unknown
 * policy with the known ones, not answered as "no records".
 */
import type { Policy } from "../../core/policy/index.js";
import { defaultPolicyDir, loadNamedPolicy, PolicyNotInFolderError } from "../../operations/common/index.js";
import { UsageError } from "../errors.js";

/** The usage line of `--policies` for a command that reads a table by policy. */
export function policiesUsageLine(
  column: number,
  what = "the policy named by --policy is looked up there",
): string {
  return `  ${"--policies <dir>".padEnd(column - 2)}the policy files (default: this repository's policies/); ${what}`;
}

/**
 * Loads the policy `name` from `dir` (default: this repository's policies/).
 *
 * @throws UsageError when the folder holds no policy of that name: the message lists the ones it
 *   holds and says how to name another folder.
 * @throws PolicyLoadError when a policy file of the folder is invalid.
 */
export async function namedPolicy(name: string, dir: string | undefined, usage?: string): Promise<Policy> {
  try {
    return await loadNamedPolicy(dir ?? defaultPolicyDir(), name);
  } catch (error) {
    if (error instanceof PolicyNotInFolderError)
      throw new UsageError(
        `unknown policy "${name}": ${error.dir} holds ${error.known.join(", ") || "no policy"}; give one of them to --policy, or --policies <dir> with the files of the policy it names`,
        { cause: error, usage },
      );
    throw error;
  }
}
