/**
 * `decisions start` (what `npm start` runs): the whole pipeline on this machine on the sample
 * events — DynamoDB Local, fauxqs, the adapter, the SageMaker gateway and the decide function
 * behind an SQS event source poller, all on 127.0.0.1 — then a summary, and everything stopped.
 * To serve the adapter alone on a generated model: `decisions serve --generate <kind>`.
 */
import { runDemo } from "../../local/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand } from "../types.js";
import { localStackFlags, localStackUsage, readLocalStackArgs } from "./localStackArgs.js";

/** Usage text of `decisions start`. */
export function startUsage(): string {
  return [
    "usage: decisions start [options]",
    "",
    "Runs the whole decision pipeline locally: starts every part on 127.0.0.1, sends the sample work",
    "items and events from events/ (the batch JSONL through S3), waits until every item is decided,",
    "rejected or dead-lettered, prints a summary per policy, and stops everything.",
    "",
    "options:",
    ...localStackUsage(),
    "  --events <folder>            the sample events (default: events/ of this repository)",
    "  --timeout-seconds <n>        give up waiting after this long (default 600)",
    "",
  ].join("\n");
}

/** The `start` sub-command: the local demo of the whole pipeline. */
export const startCommand: CliCommand = {
  async run(args) {
    const usage = startUsage();
    const { values } = parseCommandArgs({
      args,
      options: { ...localStackFlags(), events: { type: "string" }, "timeout-seconds": { type: "string" } },
      usage,
    });
    if (values.help === true) {
      process.stdout.write(usage);
      return 0;
    }
    const { stack, functionLogLevel } = readLocalStackArgs(values, process.env, usage);
    const timeout = readTimeoutSeconds(values["timeout-seconds"], usage);
    const { model, ...stackSettings } = stack;
    const result = await runDemo({
      model,
      eventsDir: values.events,
      functionLogLevel,
      timeoutMs: timeout * 1000,
      stack: stackSettings,
    });
    process.stderr.write(
      `local stack started in ${(result.startupMs / 1000).toFixed(1)} s; pipeline ran ${(result.pipelineMs / 1000).toFixed(1)} s\n`,
    );
    return result.exitCode;
  },
};

function readTimeoutSeconds(text: string | undefined, usage: string): number {
  if (text === undefined) return 600;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 86_400) {
    throw new UsageError(`--timeout-seconds must be an integer from 1 to 86400, got "${text}"`, { usage });
  }
  return value;
}
