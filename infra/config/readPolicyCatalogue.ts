import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type PolicyCatalogueEntry, PolicyCatalogueSchema } from "../../contract/index.js";
import { PolicyCatalogueError } from "./errors.js";

export type { PolicyCatalogueEntry } from "../../contract/index.js";

/**
 * The policy side's entry that loads the policies and prints the catalogue. Named by path, not
 * imported: loading a policy compiles its CEL, and the synth should not carry the policy engine.
 */
const CATALOGUE_MAIN = fileURLToPath(new URL("../../core/policy/policyCatalogueMain.ts", import.meta.url));

/** How long loading the policies may take (a child process of Node with tsx). */
const CATALOGUE_TIMEOUT_MS = 120_000;

/**
 * Reads and validates every `*.yaml` policy of a folder (the files the functions bundle), so that a
 * policy that would not load stops the synth, and the alarms and dashboard can be made per policy.
 * Sorted by file name. The policies are loaded exactly as the functions load them, in a child
 * process running `core/policy/policyCatalogueMain.ts`; what it prints is checked against
 * `contract/policy/PolicyCatalogueSchema.ts`.
 *
 * @throws PolicyCatalogueError naming the file, line and field of each problem the policy loader
 *   found, or saying that the folder holds no policy.
 */
export function readPolicyCatalogue(policyDir: string): PolicyCatalogueEntry[] {
  let output: string;
  try {
    output = execFileSync(
      process.execPath,
      ["--import", import.meta.resolve("tsx"), CATALOGUE_MAIN, policyDir],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: CATALOGUE_TIMEOUT_MS,
      },
    );
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const detail = typeof stderr === "string" && stderr.trim() !== "" ? stderr.trim() : String(error);
    throw new PolicyCatalogueError(policyDir, detail, { cause: error });
  }
  const parsed = PolicyCatalogueSchema.safeParse(JSON.parse(output));
  if (!parsed.success) {
    throw new PolicyCatalogueError(policyDir, `the policy catalogue is malformed: ${parsed.error.message}`);
  }
  return parsed.data;
}
