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
import { resolveServedModel } from "./resolveServedModel.js";

/** Usage text of `decisions start`. */
export function startUsage(): string {
  return [
    "usage: decisions start [options]",
    "",
    "Runs the whole decision pipeline locally, both lanes: starts every part on 127.0.0.1, sends the",
    "sample work items and events from events/ to the interactive lane and waits until they have ended;",
    "times a few incidents alone; puts the batch file (the sample batch repeated to --batch-lines lines)",
    "into S3, where ingest makes it a job in the bulk lane, and times as many incidents again while the",
    "job drains: they overtake it. Waits until the job has completed and every item is decided,",
    "rejected or dead-lettered, prints a summary per policy and the lanes' (incidents' send→outcome",
    "time alone and during the drain; the job's counts), and stops everything.",
    "",
    "options:",
    ...localStackUsage(),
    "  --events <folder>            the sample events (default: events/ of this repository)",
    "  --timeout-seconds <n>        give up waiting after this long (default 600)",
    "  --batch-lines <n>            lines of the batch file (default 300)",
    "  --incidents <n>              incidents timed alone and during the job's drain, 1–10 (default 6)",
    "",
  ].join("\n");
}

/**
 * What `start` prints last, once everything has stopped: how to keep the pipeline running and
 * review its items (every outcome above is gone with the stack).
 */
export function startNextStep(): string {
  return [
    "Next: `node bin/decisions.js up > up.json` keeps the whole pipeline running (this run's outcomes stopped with it);",
    "      send items with `node bin/decisions.js submit <file> --up-info up.json`, then open the review_url",
    "      up.json names to review them, or list them: `node bin/decisions.js outcomes list --policy <p> --up-info up.json`.",
    "",
  ].join("\n");
}

/** The `start` sub-command: the local demo of the whole pipeline. */
export const startCommand: CliCommand = {
  async run(args) {
    const usage = startUsage();
    const { values } = parseCommandArgs({
      args,
      options: {
        ...localStackFlags(),
        events: { type: "string" },
        "timeout-seconds": { type: "string" },
        "batch-lines": { type: "string" },
        incidents: { type: "string" },
      },
      usage,
    });
    if (values.help === true) {
      process.stdout.write(usage);
      return 0;
    }
    const { stack, functionLogLevel } = readLocalStackArgs(values, process.env, usage);
    const timeout = readInteger("timeout-seconds", values["timeout-seconds"], 600, 1, 86_400, usage);
    const batchLines = readInteger("batch-lines", values["batch-lines"], 300, 1, 1_000_000, usage);
    const incidents = readInteger("incidents", values.incidents, 6, 1, 10, usage);
    const { model, env, ...stackSettings } = stack;
    const result = await runDemo({
      env,
      // `--model hf:…`: pulled once into the model cache, then served from there.
      model: await resolveServedModel(model, { env, stderr: process.stderr }),
      eventsDir: values.events,
      functionLogLevel,
      timeoutMs: timeout * 1000,
      batchLines,
      incidents,
      stack: stackSettings,
    });
    process.stderr.write(
      `local stack started in ${(result.startupMs / 1000).toFixed(1)} s; pipeline ran ${(result.pipelineMs / 1000).toFixed(1)} s\n${startNextStep()}`,
    );
    return result.exitCode;
  },
};

function readInteger(
  flag: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
  usage: string,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got "${text}"`, { usage });
  }
  return value;
}
