/**
 * `decisions submit <items.jsonl | event.json> --queue-url …`: sends work items or EventBridge
 * events to a work queue (fauxqs locally, or SQS) with SendMessageBatch, each body exactly as
 * written in the file, and reports every entry that did not get there.
 */
import { SUPERSEDE_ANY, SUPERSEDE_ATTRIBUTE } from "../../functions/outcomes/index.js";
import { createSqsClient, type FailedEntry, submitMessages } from "../../operations/queue/index.js";
import { UsageError } from "../errors.js";
import { inertText } from "../inertText.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

/** Usage text of `decisions submit`. */
export function submitUsage(): string {
  return [
    "usage: decisions submit <items.jsonl | event.json> --queue-url <url> [--supersede] [--endpoint-url <url>] [--region <r>]",
    "",
    "Sends work items or EventBridge events to a queue with SendMessageBatch (10 per call). A .json file",
    "is one JSON document (an event, or an array of them); any other file is JSON Lines, one message per",
    "line. Each body is sent exactly as written (key order and numbers reach the model unchanged); a line",
    "that is not valid JSON is reported and not sent. Entries SQS fails on its side are sent again (up to",
    "5 attempts). Failures are listed on stderr (line, id, code, message); the exit code is 1 if any.",
    "",
    "options:",
    "  --queue-url <url>      the work queue (as `decisions up` prints it, or an SQS queue URL)",
    "  --endpoint-url <url>   an SQS endpoint other than AWS's, e.g. http://127.0.0.1:<port> (fauxqs)",
    "  --region <region>      default: the SDK's configuration, the queue URL's region, or us-east-1 locally",
    "  --supersede            each item replaces the outcome that stands for its id when the decide function",
    "                         reads it (the old one is kept in the new outcome's history). Without it an item",
    "                         whose id has an outcome is a duplicate (another payload: a conflict, recorded).",
    "",
  ].join("\n");
}

/** Builds the `decisions submit` command writing to the given streams (tests pass their own). */
export function createSubmitCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const usage = submitUsage();
      const { values, positionals } = parseCommandArgs({
        args,
        options: {
          "queue-url": { type: "string" },
          "endpoint-url": { type: "string" },
          region: { type: "string" },
          supersede: { type: "boolean" },
          help: { type: "boolean", short: "h" },
        },
        allowPositionals: true,
        usage,
      });
      if (values.help === true) {
        stdout.write(usage);
        return 0;
      }
      const [file, ...extra] = positionals;
      if (file === undefined || extra.length > 0)
        throw new UsageError("exactly one input file is needed", { usage });
      const queueUrl = values["queue-url"];
      if (queueUrl === undefined || queueUrl === "")
        throw new UsageError("--queue-url is required", { usage });
      const target = { region: values.region, endpointUrl: values["endpoint-url"] };
      const sqs = createSqsClient(target, queueUrl);
      try {
        const report = await submitMessages({
          sqs,
          queueUrl,
          file,
          ...(values.supersede === true
            ? {
                messageAttributes: {
                  [SUPERSEDE_ATTRIBUTE]: { DataType: "String", StringValue: SUPERSEDE_ANY },
                },
              }
            : {}),
        });
        for (const failed of report.failed) stderr.write(`${inertText(describeFailure(failed))}\n`);
        const total = report.sent.length + report.failed.length;
        if (total === 0) {
          stderr.write(`${file}: no messages in the file\n`);
          return 1;
        }
        stdout.write(
          `sent ${report.sent.length} of ${total} message(s) to ${queueUrl}` +
            (report.failed.length > 0 ? `; ${report.failed.length} failed\n` : "\n"),
        );
        return report.failed.length > 0 ? 1 : 0;
      } finally {
        sqs.destroy();
      }
    },
  };
}

/** The `decisions submit` command, writing to the process's stdout and stderr. */
export const submitCommand: CliCommand = createSubmitCommand();

function describeFailure(entry: FailedEntry): string {
  const where = entry.id === undefined ? `line ${entry.line}` : `line ${entry.line} (id ${entry.id})`;
  const attempts = entry.attempts > 1 ? ` after ${entry.attempts} attempts` : "";
  return `${where}: ${entry.code}${attempts}: ${entry.message}`;
}
