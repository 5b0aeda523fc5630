/** The inputs of `decisions classify`: the policies and the items file. */
import { readFile } from "node:fs/promises";
import type { WorkItemInput } from "../../../core/pipeline/index.js";
import { loadPolicies, type Policy, type PolicySet } from "../../../core/policy/index.js";
import { readItemLines } from "../../../operations/classify/index.js";
import {
  defaultPolicyDir,
  InputFileError,
  PolicyNotInFolderError,
} from "../../../operations/common/index.js";

/** What {@link readClassifyInputs} returns. */
export interface ClassifyInputs {
  /** Every policy of the folder. */
  readonly policies: PolicySet;
  /** The policy asked for. */
  readonly policy: Policy;
  /** The items file's lines, those without a `policy` field given the one asked for. */
  readonly items: WorkItemInput[];
}

/**
 * Loads the policies (`policyDir`, default this repository's policies/), picks the one asked for
 * and reads the items file's lines.
 *
 * @throws PolicyLoadError for a policy folder that does not load, PolicyNotInFolderError naming the
 *   policies there, InputFileError for an items file that cannot be read, and what `readItemLines`
 *   throws for a line that is not UTF-8
 */
export async function readClassifyInputs(options: {
  input: string;
  policyName: string;
  policyDir: string | undefined;
}): Promise<ClassifyInputs> {
  const policyDir = options.policyDir ?? defaultPolicyDir();
  const policies = await loadPolicies(policyDir);
  const policy = policies.get(options.policyName);
  if (policy === undefined) throw new PolicyNotInFolderError(options.policyName, policyDir, policies.names());
  // Bytes: readItemLines decodes each line strictly (a line that is not UTF-8 is rejected).
  const bytes = await readFile(options.input).catch((error: NodeJS.ErrnoException) => {
    throw new InputFileError(
      options.input,
      error.code === "ENOENT" ? "no such file" : `cannot be read (${error.code})`,
      { cause: error },
    );
  });
  return { policies, policy, items: readItemLines(bytes, options.policyName) };
}
