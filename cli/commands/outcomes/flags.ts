/**
 * The flags of `decisions outcomes`: the `util.parseArgs` table, which of them each sub-command
 * takes and the values they parse to.
 */
import type { ParsedCommandArgs } from "../../parseCommandArgs.js";
import { TABLE_OPTION_FLAGS, TABLE_OPTION_NAMES } from "../tableOptions.js";

/** Every flag of `decisions outcomes` (`util.parseArgs` options). */
export const OUTCOMES_FLAGS = {
  ...TABLE_OPTION_FLAGS,
  policy: { type: "string" },
  status: { type: "string" },
  limit: { type: "string" },
  json: { type: "boolean" },
  format: { type: "string" },
  labelled: { type: "boolean" },
  out: { type: "string" },
  set: { type: "string", multiple: true },
  by: { type: "string" },
  "expect-updated-at": { type: "string" },
  amend: { type: "boolean" },
  "replace-reviews": { type: "boolean" },
  conflicts: { type: "boolean" },
  order: { type: "string" },
  window: { type: "string" },
  "queue-url": { type: "string" },
  "sqs-endpoint-url": { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  "dry-run": { type: "boolean" },
  yes: { type: "boolean" },
  wait: { type: "string" },
  policies: { type: "string" },
  "model-sha256": { type: "string" },
  "policy-version": { type: "string" },
  diff: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The sub-commands of `decisions outcomes`. */
export type OutcomesSub = "list" | "show" | "export" | "review" | "redecide";

/** The flag values of one `decisions outcomes` run, as parsed from {@link OUTCOMES_FLAGS}. */
export type OutcomesValues = ParsedCommandArgs<typeof OUTCOMES_FLAGS>["values"];

/** Which flags each sub-command takes besides the table options. */
export const OUTCOMES_SUB_FLAGS: Record<OutcomesSub, readonly string[]> = {
  list: ["policy", "status", "conflicts", "order", "window", "limit", "json"],
  show: ["policy"],
  export: ["policy", "status", "format", "labelled", "out"],
  review: ["policy", "set", "by", "expect-updated-at", "amend"],
  redecide: [
    "policy",
    "status",
    "since",
    "until",
    "dry-run",
    "yes",
    "queue-url",
    "sqs-endpoint-url",
    "wait",
    "replace-reviews",
    "model-sha256",
    "policy-version",
    "diff",
  ],
};

/** The flags every sub-command takes: the table options, --policies and --help. */
export const OUTCOMES_SHARED_FLAGS: readonly string[] = [...TABLE_OPTION_NAMES, "policies", "help"];
