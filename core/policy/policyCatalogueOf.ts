import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PolicyCatalogueEntry } from "../../contract/policy/PolicyCatalogueSchema.js";
import { parsePolicy } from "./parsePolicy.js";

/**
 * Loads every `*.yaml` policy of a folder as the functions do (schema, cross-references, CEL) and
 * returns what the CDK app needs of each, sorted by file name.
 *
 * @throws PolicyLoadError naming the file, line and field of each problem.
 * @throws Error when the folder holds no policy.
 */
export function policyCatalogueOf(policyDir: string): PolicyCatalogueEntry[] {
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
      ...(policy.deliver.length === 0
        ? {}
        : { deliver: policy.deliver.map((target) => ({ ...target, on: [...target.on] })) }),
    };
  });
}
