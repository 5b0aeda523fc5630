import { join } from "node:path";
import { readConsoleSite } from "../config/readConsoleSite.js";
import { ReviewConsole } from "../constructs/ReviewConsole.js";
import type { StackHost, StackInputs } from "./stackInputs.js";

/** The review console: its page, its HTTP API and the API's function. */
export function addReviewConsole(
  host: StackHost<"outcomes" | "policies">,
  { settings, projectRoot, logRetention }: StackInputs,
): ReviewConsole {
  return new ReviewConsole(host, "ReviewConsole", {
    entry: join(projectRoot, "functions", "reviewConsole", "handler.ts"),
    projectRoot,
    site: readConsoleSite(),
    table: host.outcomes.table,
    statusIndexArn: host.outcomes.statusIndexArn,
    policyNames: host.policies.map((policy) => policy.name),
    memorySize: settings.functionMemoryMb,
    logRetention,
  });
}
