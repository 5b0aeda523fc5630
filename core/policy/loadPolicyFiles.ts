import { basename } from "node:path";
import { PolicyLoadError, type PolicyProblem } from "./errors.js";
import { loadPolicyFile } from "./loadPolicyFile.js";
import type { Policy } from "./Policy.js";
import { PolicySet } from "./PolicySet.js";

/**
 * Loads the named policy files into a {@link PolicySet} with every check `loadPolicies` makes of a
 * folder: each file's own checks (`parsePolicy`), then across them — the policy's name must be its
 * file name (`ticket-routing.yaml` holds `name: ticket-routing`), names are unique, and no two
 * policies map the same event source and detail-type. `loadPolicies` lists a folder and calls this;
 * `decisions policies check <file>` calls it with one file, so a file is judged exactly as the
 * functions would judge it in their folder.
 *
 * All files are read and checked before anything is thrown, so one error lists the problems of
 * every file.
 *
 * @throws PolicyLoadError with every problem, in file order (also for an unreadable file)
 * @example `const policies = await loadPolicyFiles(["policies/ticket-routing.yaml"])`
 */
export async function loadPolicyFiles(files: readonly string[]): Promise<PolicySet> {
  const results = await Promise.allSettled(files.map((file) => loadPolicyFile(file)));
  const problems: PolicyProblem[] = [];
  const policies: Policy[] = [];
  for (const result of results) {
    if (result.status === "fulfilled") policies.push(result.value);
    else if (result.reason instanceof PolicyLoadError) problems.push(...result.reason.problems);
    else throw result.reason;
  }

  const byName = new Map<string, Policy>();
  const eventOwners = new Map<string, string>();
  for (const policy of policies) {
    const expected = basename(policy.file).replace(/\.ya?ml$/, "");
    if (policy.name !== expected) {
      problems.push(
        wholeFile(
          policy.file,
          `name "${policy.name}" does not match the file name (expected "${expected}")`,
          ["name"],
        ),
      );
    }
    const twin = byName.get(policy.name);
    if (twin !== undefined) {
      problems.push(
        wholeFile(policy.file, `policy "${policy.name}" is also defined in ${twin.file}`, ["name"]),
      );
    }
    byName.set(policy.name, policy);
    policy.events.forEach((mapping, index) => {
      const key = JSON.stringify([mapping.source, mapping.detailType]);
      const owner = eventOwners.get(key);
      if (owner !== undefined && owner !== policy.name) {
        problems.push(
          wholeFile(
            policy.file,
            `policy "${owner}" already maps source "${mapping.source}" detail-type "${mapping.detailType}"`,
            ["events", index],
          ),
        );
      }
      eventOwners.set(key, owner ?? policy.name);
    });
  }
  if (problems.length > 0) throw new PolicyLoadError(problems);
  return new PolicySet(policies);
}

/** A problem of a whole file (or a field the loader cannot place on a line): line and column 1. */
export function wholeFile(file: string, message: string, path: (string | number)[] = []): PolicyProblem {
  return { file, line: 1, column: 1, path, message };
}
