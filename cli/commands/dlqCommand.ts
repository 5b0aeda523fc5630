/**
 * `decisions dlq list|redrive --queue-url <dlq>`: what is in a dead-letter queue and why, and
 * moving its messages back to the work queue (sent first, deleted from the DLQ only once sent).
 */
import type { SQSClient } from "@aws-sdk/client-sqs";
import {
  createSqsClient,
  type DeadLetter,
  findSourceQueues,
  listDeadLetters,
  redriveDeadLetters,
} from "../../operations/queue/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertLines, inertText } from "../inertText.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

const USAGE = `usage:
  decisions dlq list    --queue-url <dlq url> [--max N] [--json] [--endpoint-url <url>] [--region <r>]
  decisions dlq redrive --queue-url <dlq url> [--to <work queue url>] [--max N] [--endpoint-url <url>] [--region <r>]

list     shows each message of the dead-letter queue without consuming it: message id, policy and item
         id (or the event's source and detail-type), how often it was received, when it was sent and
         first received, the reason when the message carries one, and a preview of its body (--json:
         one JSON object per message). Listing counts as one receive of each message.
redrive  moves messages back: each is sent to the work queue (body and attributes unchanged) and only
         then deleted from the dead-letter queue. --to defaults to the queue SQS names as the source of
         the dead-letter queue. The exit code is 1 when any message was not moved.

options:
  --queue-url <url>      the dead-letter queue
  --to <url>             redrive: the queue to move messages to
  --max <n>              at most this many messages (default: list 1000, redrive all)
  --endpoint-url <url>   an SQS endpoint other than AWS's, e.g. http://127.0.0.1:<port> (fauxqs)
  --region <region>      default: the SDK's configuration, the queue URL's region, or us-east-1 locally
`;

const FLAGS = {
  "queue-url": { type: "string" },
  to: { type: "string" },
  max: { type: "string" },
  json: { type: "boolean" },
  "endpoint-url": { type: "string" },
  region: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Builds the `decisions dlq` command writing to the given streams (tests pass their own). */
export function createDlqCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const [sub, ...rest] = args;
      if (sub === "help" || sub === "--help" || sub === "-h") {
        stdout.write(USAGE);
        return 0;
      }
      if (sub !== "list" && sub !== "redrive") {
        throw new UsageError(sub === undefined ? "a sub-command is needed" : `unknown sub-command "${sub}"`, {
          usage: USAGE,
        });
      }
      const { values } = parseCommandArgs({ args: rest, options: FLAGS, usage: USAGE });
      if (values.help === true) {
        stdout.write(USAGE);
        return 0;
      }
      const dlqUrl = values["queue-url"];
      if (dlqUrl === undefined || dlqUrl === "")
        throw new UsageError("--queue-url is required", { usage: USAGE });
      const max = readMax(values.max);
      if (sub === "list" && values.to !== undefined)
        throw new UsageError("--to is for redrive", { usage: USAGE });
      if (sub === "redrive" && values.json === true)
        throw new UsageError("--json is for list", { usage: USAGE });
      const sqs = createSqsClient({ region: values.region, endpointUrl: values["endpoint-url"] }, dlqUrl);
      try {
        if (sub === "list") {
          const letters = await listDeadLetters(sqs, dlqUrl, max === undefined ? {} : { max });
          if (values.json === true) for (const letter of letters) stdout.write(`${inertJson(letter)}\n`);
          else stdout.write(formatLetters(letters, dlqUrl));
          return 0;
        }
        return await redrive(sqs, dlqUrl, values.to, max, stdout, stderr);
      } finally {
        sqs.destroy();
      }
    },
  };
}

/** The `decisions dlq` command, writing to the process's stdout and stderr. */
export const dlqCommand: CliCommand = createDlqCommand();

async function redrive(
  sqs: SQSClient,
  dlqUrl: string,
  to: string | undefined,
  max: number | undefined,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  let targetUrl = to;
  if (targetUrl === undefined) {
    const sources = await findSourceQueues(sqs, dlqUrl);
    if (sources.length > 1) {
      throw new UsageError(
        `${sources.length} queues send their dead letters here; name one with --to: ${sources.join(", ")}`,
      );
    }
    targetUrl = sources[0];
  }
  if (targetUrl === undefined || targetUrl === dlqUrl) {
    throw new UsageError("--to must name another queue than the dead-letter queue", { usage: USAGE });
  }
  const report = await redriveDeadLetters(sqs, { dlqUrl, targetUrl, ...(max === undefined ? {} : { max }) });
  for (const failed of report.failed) {
    const what = failed.stage === "send" ? "not moved (still in the DLQ)" : "sent, but still in the DLQ too";
    stderr.write(
      inertLines(`${failed.messageId} ${describeItem(failed)}: ${what}: ${failed.code}: ${failed.message}\n`),
    );
  }
  stdout.write(
    `moved ${report.moved.length} message(s) from ${dlqUrl} to ${targetUrl}` +
      (report.failed.length > 0 ? `; ${report.failed.length} failed\n` : "\n"),
  );
  return report.failed.length > 0 ? 1 : 0;
}

function formatLetters(letters: readonly DeadLetter[], dlqUrl: string): string {
  if (letters.length === 0) return `no messages in ${dlqUrl}\n`;
  const lines = [`${letters.length} message(s) in ${dlqUrl}:`];
  for (const letter of letters) {
    lines.push("");
    lines.push(`${letter.messageId}  ${describeItem(letter)}`);
    lines.push(
      `  received ${letter.receiveCount} time(s)` +
        (letter.sentAt ? `; sent ${letter.sentAt}` : "") +
        (letter.firstReceivedAt ? `; first received ${letter.firstReceivedAt}` : ""),
    );
    if (letter.sourceArn) lines.push(`  from ${letter.sourceArn}`);
    lines.push(
      `  reason: ${letter.reason ?? "none recorded (the consumer failed or timed out on every receive)"}`,
    );
    if (letter.attributes.length > 0) lines.push(`  attributes: ${letter.attributes.join(", ")}`);
    lines.push(`  body (${letter.body.bytes} bytes): ${letter.body.preview}`);
  }
  // Ids, reasons and bodies come from producers: each line is shown inert (no cursor movement, no
  // repainted line).
  return `${lines.map(inertText).join("\n")}\n`;
}

function describeItem(letter: DeadLetter): string {
  const { body } = letter;
  switch (body.kind) {
    case "item":
      return `policy ${body.policy} item ${body.id ?? "(no id)"}`;
    case "event":
      return `event ${body.event?.source}/${body.event?.detailType} ${body.id ?? "(no id)"}`;
    case "json":
      return "JSON that is not a work item";
    case "text":
      return "not JSON";
  }
}

function readMax(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`--max must be a positive integer, got "${text}"`, { usage: USAGE });
  }
  return value;
}
