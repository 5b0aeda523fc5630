import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { PolicyLoadError } from "./errors.js";
import { loadPolicyFiles, wholeFile } from "./loadPolicyFiles.js";
import type { PolicySet } from "./PolicySet.js";

/**
 * Loads every `*.yaml` / `*.yml` policy in `dir` (not below it) into a {@link PolicySet}, with
 * every check of {@link loadPolicyFiles}: each file's own, then the name matching the file name,
 * unique names, and no two policies mapping the same event source and detail-type.
 *
 * All files are read and checked before anything is thrown, so one error lists the problems of
 * every file.
 *
 * @throws PolicyLoadError with every problem (also for an unreadable or empty folder)
 * @example `const policies = await loadPolicies(config.policyDir); policies.get("ticket-routing")`
 */
export async function loadPolicies(dir: string): Promise<PolicySet> {
  return loadPolicyFiles(await listPolicyFiles(dir));
}

/**
 * The policy files `loadPolicies` reads in `dir`: its `*.yaml` / `*.yml` entries (not below it),
 * sorted, as paths joined to `dir`.
 *
 * @throws PolicyLoadError for an unreadable folder or one without policy files
 */
export async function listPolicyFiles(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await readdir(dir)).filter((name) => /\.ya?ml$/.test(name)).sort();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new PolicyLoadError([wholeFile(dir, `cannot read the policy folder: ${reason}`)], { cause: error });
  }
  if (entries.length === 0)
    throw new PolicyLoadError([wholeFile(dir, "no policy files (*.yaml) in this folder")]);
  return entries.map((name) => join(dir, name));
}
