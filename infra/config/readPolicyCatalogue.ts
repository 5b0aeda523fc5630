import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parsePolicy } from "../../functions/policy/parsePolicy.js";

/** What the CDK app needs to know of one policy: its name and the events it maps. */
export interface PolicyCatalogueEntry {
  name: string;
  /** File name inside the policy folder. */
  file: string;
  /** `source` / `detail-type` pairs of the policy's EventBridge mappings. */
  events: ReadonlyArray<{ source: string; detailType: string }>;
}

/**
 * Reads and validates every `*.yaml` policy of a folder (the files the functions bundle), so that a
 * policy that would not load stops the synth, and the alarms and dashboard can be made per policy.
 * Sorted by file name.
 *
 * @throws PolicyLoadError (from `functions/policy`) naming the file, line and field of each problem.
 * @throws Error when the folder holds no policy.
 */
export function readPolicyCatalogue(policyDir: string): PolicyCatalogueEntry[] {
  const files = readdirSync(policyDir)
    .filter((file) => file.endsWith(".yaml"))
    .sort();
  if (files.length === 0)
    throw new Error(`${policyDir} holds no *.yaml policy: the functions would decide nothing`);
  return files.map((file) => {
    const policy = parsePolicy(readFileSync(join(policyDir, file), "utf8"), join(policyDir, file));
    return {
      name: policy.name,
      file,
      events: policy.events.map((mapping) => ({ source: mapping.source, detailType: mapping.detailType })),
    };
  });
}
