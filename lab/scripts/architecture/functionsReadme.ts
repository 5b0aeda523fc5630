import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  CAPACITY_CONTROLLER_SETTINGS,
  DECIDE_SETTINGS,
  DELIVER_SETTINGS,
  DRIFT_MONITOR_SETTINGS,
  defaultTextOf,
  INGEST_SETTINGS,
  JOBS_MONITOR_SETTINGS,
  RESULTS_WRITER_SETTINGS,
  REVIEW_CONSOLE_SETTINGS,
  type Setting,
} from "../../../contract/index.js";
import { FRONT_DOOR_SETTINGS } from "../../../contract/settings/frontDoorSettings.js";
import { replaceGeneratedBlock } from "./generatedBlock.js";
import { subFolders } from "./sourceFiles.js";

/** The script that writes functions/README.md's generated block, named in its markers. */
export const FUNCTIONS_README_SCRIPT = "lab/scripts/writeFunctionsReadme.ts";

/** A deployed function's environment: its settings in the kit and its section of docs/configuration.md. */
interface FunctionEnvironment {
  readonly settings: Readonly<Record<string, Setting<unknown>>>;
  /** The heading's anchor in docs/configuration.md. */
  readonly section: string;
}

/**
 * Each function under `functions/` with a `handler.ts`, by folder: the settings it reads at cold
 * start, or `"none"` for a function that reads no variable of ours.
 */
export const FUNCTION_ENVIRONMENTS: Readonly<Record<string, FunctionEnvironment | "none">> = {
  decide: { settings: DECIDE_SETTINGS, section: "the-decide-function" },
  deliver: { settings: DELIVER_SETTINGS, section: "the-deliver-function" },
  ingest: { settings: INGEST_SETTINGS, section: "the-ingest-function" },
  results: { settings: RESULTS_WRITER_SETTINGS, section: "the-results-writer" },
  jobsMonitor: { settings: JOBS_MONITOR_SETTINGS, section: "the-jobs-monitor" },
  driftMonitor: { settings: DRIFT_MONITOR_SETTINGS, section: "the-drift-monitor" },
  jobEvents: "none",
  capacityController: { settings: CAPACITY_CONTROLLER_SETTINGS, section: "the-capacity-controller" },
  reviewConsole: { settings: REVIEW_CONSOLE_SETTINGS, section: "the-review-consoles-api-function" },
  frontDoor: { settings: FRONT_DOOR_SETTINGS, section: "the-front-door-function" },
};

/** A function folder has a handler that {@link FUNCTION_ENVIRONMENTS} does not know. */
export class UnknownFunctionError extends Error {
  override name = "UnknownFunctionError";
  constructor(readonly folder: string) {
    super(
      `functions/${folder}/handler.ts has no entry in FUNCTION_ENVIRONMENTS (lab/scripts/architecture/functionsReadme.ts)`,
    );
  }
}

/** The folders under `functions/` that hold a Lambda handler, sorted. */
export function functionFolders(root: string): string[] {
  return subFolders(root, "functions").filter((folder) =>
    existsSync(join(root, "functions", folder, "handler.ts")),
  );
}

/**
 * The environment table of functions/README.md: per function with a handler, the variables of its
 * settings (required ones first, as the kit lists them) and a link to its section of
 * docs/configuration.md, where each has its default and meaning.
 * @throws UnknownFunctionError for a handler folder {@link FUNCTION_ENVIRONMENTS} does not know.
 */
export function functionEnvironmentTable(root: string): string[] {
  const rows = functionFolders(root).map((folder) => {
    const environment = FUNCTION_ENVIRONMENTS[folder];
    if (environment === undefined) throw new UnknownFunctionError(folder);
    if (environment === "none") return `| \`${folder}/\` | none | — |`;
    const settings = Object.values(environment.settings);
    const required = settings.filter((setting) => defaultTextOf(setting) === "required");
    const optional = settings.filter((setting) => defaultTextOf(setting) !== "required");
    const names = (list: readonly Setting<unknown>[]): string =>
      list.flatMap((setting) => setting.env.map((name) => `\`${name}\``)).join(", ");
    const cell = [required.length > 0 ? `${names(required)} (required)` : "", names(optional)]
      .filter((text) => text !== "")
      .join("; ");
    return `| \`${folder}/\` | ${cell} | [configuration.md](../docs/configuration.md#${environment.section}) |`;
  });
  return ["| function | variables | defaults and meaning |", "| --- | --- | --- |", ...rows];
}

/**
 * The folders functions/README.md describes: the backticked names of its list items
 * (`` - `pipeline/` — … ``), in the order written.
 */
export function describedFolders(readme: string): string[] {
  return [...readme.matchAll(/^- `([^`/]+)\/`/gm)].map((match) => match[1] ?? "");
}

/**
 * functions/README.md with its environment table written from the settings kit.
 * @throws GeneratedBlockError when the page lacks the block's markers.
 * @throws UnknownFunctionError for a handler folder {@link FUNCTION_ENVIRONMENTS} does not know.
 */
export function functionsReadme(page: string, root: string): string {
  return replaceGeneratedBlock(
    page,
    "the environment table",
    FUNCTIONS_README_SCRIPT,
    functionEnvironmentTable(root),
  );
}
