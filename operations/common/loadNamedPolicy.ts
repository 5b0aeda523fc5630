import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadPolicies, type Policy } from "../../core/policy/index.js";
import { PolicyNotInFolderError } from "./errors.js";

/**
 * The repository's `policies/` folder, found from this module both in the sources
 * (`operations/common/`) and in the build (`dist/operations/common/`).
 */
export function defaultPolicyDir(): string {
  const sources = fileURLToPath(new URL("../../policies/", import.meta.url));
  return existsSync(sources) ? sources : fileURLToPath(new URL("../../../policies/", import.meta.url));
}

/**
 * Loads the policies of `dir` as the decide function does (`loadPolicies`: every file checked)
 * and returns the one named.
 *
 * @throws PolicyLoadError when a policy file of the folder is invalid.
 * @throws PolicyNotInFolderError when none has that name.
 */
export async function loadNamedPolicy(dir: string, name: string): Promise<Policy> {
  const policies = await loadPolicies(dir);
  const policy = policies.get(name);
  if (policy === undefined) throw new PolicyNotInFolderError(name, dir, policies.names());
  return policy;
}
