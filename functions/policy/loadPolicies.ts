import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { PolicyLoadError, type PolicyProblem } from "./errors.js";
import { loadPolicyFile } from "./loadPolicyFile.js";
import type { Policy } from "./Policy.js";
import { PolicySet } from "./PolicySet.js";

/**
 * Loads every `*.yaml` / `*.yml` policy in `dir` (not below it) into a {@link PolicySet}.
 *
 * All files are read and checked before anything is thrown, so one error lists the problems of
 * every file. Beyond each file's own checks: the policy's name must be its file name
 * (`ticket-routing.yaml` holds `name: ticket-routing`), names are unique, and no two policies
 * map the same event source and detail-type.
 *
 * @throws PolicyLoadError with every problem (also for an unreadable or empty folder)
 * @example `const policies = await loadPolicies(config.policyDir); policies.get("ticket-routing")`
 */
export async function loadPolicies(dir: string): Promise<PolicySet> {
  let entries: string[];
  try {
    entries = (await readdir(dir)).filter((name) => /\.ya?ml$/.test(name)).sort();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new PolicyLoadError([wholeFile(dir, `cannot read the policy folder: ${reason}`)], { cause: error });
  }
  if (entries.length === 0)
    throw new PolicyLoadError([wholeFile(dir, "no policy files (*.yaml) in this folder")]);

  const results = await Promise.allSettled(entries.map((name) => loadPolicyFile(join(dir, name))));
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

function wholeFile(file: string, message: string, path: (string | number)[] = []): PolicyProblem {
  return { file, line: 1, column: 1, path, message };
}
