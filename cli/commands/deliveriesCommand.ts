/**
 * `decisions deliveries list|redrive`: the outcome deliveries that were given up on (the delivery
 * DLQ: target, outcome, status, attempts, the last answer, the reason, when) and sending them again,
 * freshly signed (docs/deliveries.md).
 */
import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import type { DeliveryFailure } from "../../contract/delivery/DeliveryFailureSchema.js";
import { DEFAULT_DELIVERY_SCHEDULE } from "../../contract/delivery/deliverySchedule.js";
import { DeliveryDlq, redriveFailures, resolveTarget } from "../../core/delivery/index.js";
import { loadPolicies } from "../../core/policy/index.js";
import { readUpLine } from "../../operations/common/readUpLine.js";
import { createSqsClient } from "../../operations/queue/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertText } from "../inertText.js";
import { parseSubCommandArgs } from "../parseSubCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

const USAGE = `usage:
  decisions deliveries list    (--up-info <up.json> | --queue-url <delivery dlq url>) [--max N] [--json]
                               [--endpoint-url <url>] [--region <r>]
  decisions deliveries redrive (--up-info <up.json> | --queue-url <delivery dlq url>) [--target <name>]...
                               [--ids <id,id,…>] [--policies <dir>] [--max N] [--endpoint-url <url>] [--region <r>]

Deliveries of outcomes that were given up on — the receiver refused one (a 4xx other than 408 and 429), or
it did not answer 2xx within the retry schedule — wait in the delivery DLQ with their reason
(docs/deliveries.md). decisions up prints its DLQ as delivery_dlq_url; on AWS each target has its own (the
stack's DeliveryDlqUrl outputs).

list     shows each failed delivery without consuming it: target, outcome id, status, attempts, the last
         answer (HTTP status and the start of its body, or the connection error), the reason and when it
         was given up on (--json: the DLQ's record, one JSON object per line). Listing counts as one receive.
redrive  sends the selected failures again, one attempt each, with the same webhook-id and a fresh
         signature (the target's current secret, read from the policies' deliver sections and this
         environment's env: variables). A 2xx removes the failure from the DLQ; anything else leaves it
         there and is reported. The exit code is 1 when any was not delivered, or when --target or
         --ids match no failure in the DLQ.

options:
  --up-info <file>       decisions up's JSON line, saved: its delivery_dlq_url and sqs_endpoint
  --queue-url <url>      the delivery DLQ
  --target <name>        redrive: only this target (<policy>/<name>, or a name); repeatable
  --ids <ids>            redrive: only these outcome ids or webhook-ids, comma-separated
  --policies <dir>       redrive: the policy folder whose deliver sections name the targets (default "policies")
  --max <n>              at most this many failures read (default 1000)
  --json                 list: one JSON object per failure
  --endpoint-url <url>   an SQS endpoint other than AWS's (fauxqs)
  --region <region>      default: the SDK's configuration, the queue URL's region, or us-east-1 locally
`;

const FLAGS = {
  "up-info": { type: "string" },
  "queue-url": { type: "string" },
  target: { type: "string", multiple: true },
  ids: { type: "string" },
  policies: { type: "string" },
  max: { type: "string" },
  json: { type: "boolean" },
  "endpoint-url": { type: "string" },
  region: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Where `deliveries` writes and which environment `redrive` reads `env:` secrets from. */
export interface DeliveriesCommandIo extends CliOutput {
  env: Readonly<Record<string, string | undefined>>;
}

/** Builds the `decisions deliveries` command (tests pass their own streams and environment). */
export function createDeliveriesCommand(io: Partial<DeliveriesCommandIo> = {}): CliCommand {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  return {
    async run(args) {
      const parsed = parseSubCommandArgs({
        command: "deliveries",
        args,
        options: FLAGS,
        subFlags: { list: ["json"], redrive: ["target", "ids", "policies"] },
        sharedFlags: ["up-info", "queue-url", "max", "endpoint-url", "region", "help"],
        usage: USAGE,
      });
      if (parsed.help) {
        stdout.write(USAGE);
        return 0;
      }
      const { values } = parsed;
      const where = await dlqOf(values);
      const max = readMax(values.max);
      const sqs = createSqsClient({ region: where.region, endpointUrl: where.endpointUrl }, where.queueUrl);
      const dlq = new DeliveryDlq(sqs, where.queueUrl);
      try {
        if (parsed.sub === "list") {
          const { failures: held, others } = await dlq.hold(max);
          await Promise.all(held.map((entry) => dlq.release(entry.receiptHandle)));
          if (others > 0)
            stderr.write(
              `note: ${others} other message(s) in the DLQ are no failure record: delivery messages the queue's redrive moved there after its receives ran out (the deliver function failed on them; its logs say why)\n`,
            );
          if (values.json === true) for (const { failure } of held) stdout.write(`${inertJson(failure)}\n`);
          else
            stdout.write(
              formatFailures(
                held.map((entry) => entry.failure),
                where.queueUrl,
              ),
            );
          return 0;
        }
        const policies = await loadPolicies(values.policies ?? "policies");
        const env = io.env ?? process.env;
        const hasBus = policies
          .names()
          .some((name) => policies.get(name)?.deliver.some((target) => target.bus !== undefined));
        const eventBridge = hasBus
          ? new EventBridgeClient(where.region === undefined ? {} : { region: where.region })
          : undefined;
        try {
          const results = await redriveFailures(
            dlq,
            (key) => resolveTarget(policies, key, env),
            {
              ...(values.target === undefined ? {} : { targets: values.target }),
              ...(values.ids === undefined ? {} : { ids: values.ids.split(",").map((id) => id.trim()) }),
              max,
            },
            {
              timeoutMs: DEFAULT_DELIVERY_SCHEDULE.attemptTimeoutMs,
              ...(eventBridge === undefined ? {} : { eventBridge }),
            },
          );
          for (const result of results) {
            const line = result.delivered
              ? `delivered ${result.failure.delivery_id} to ${result.failure.target}`
              : `not delivered ${result.failure.delivery_id} to ${result.failure.target}: ${describeAnswer(result.answer)} (left in the DLQ)`;
            (result.delivered ? stdout : stderr).write(`${inertText(line)}\n`);
          }
          if (results.length === 0 && (values.target !== undefined || values.ids !== undefined)) {
            const asked = [
              ...(values.target ?? []).map((target) => `--target ${target}`),
              ...(values.ids === undefined ? [] : [`--ids ${values.ids}`]),
            ].join(" ");
            stderr.write(
              `${inertText(`no failed delivery in ${where.queueUrl} matches ${asked}: decisions deliveries list shows the targets and ids it holds`)}\n`,
            );
            return 1;
          }
          const failed = results.filter((result) => !result.delivered).length;
          stdout.write(`${results.length - failed} of ${results.length} delivered\n`);
          return failed === 0 ? 0 : 1;
        } finally {
          eventBridge?.destroy();
        }
      } finally {
        sqs.destroy();
      }
    },
  };
}

/** The `decisions deliveries` command. */
export const deliveriesCommand: CliCommand = createDeliveriesCommand();

interface DlqLocation {
  queueUrl: string;
  endpointUrl: string | undefined;
  region: string | undefined;
}

/** The delivery DLQ the flags name: `--queue-url`, or up's `delivery_dlq_url` and endpoint. */
async function dlqOf(values: {
  "up-info"?: string | undefined;
  "queue-url"?: string | undefined;
  "endpoint-url"?: string | undefined;
  region?: string | undefined;
}): Promise<DlqLocation> {
  const upInfo = values["up-info"];
  const queueUrl = values["queue-url"];
  if ((upInfo === undefined) === (queueUrl === undefined))
    throw new UsageError("give --up-info or --queue-url (one of them)", { usage: USAGE });
  if (queueUrl !== undefined) return { queueUrl, endpointUrl: values["endpoint-url"], region: values.region };
  const line = await readUpLine(upInfo as string);
  if (line.delivery_dlq_url === undefined)
    throw new UsageError(
      `${upInfo} names no delivery_dlq_url: that decisions up loaded no policy with a deliver section`,
      { usage: USAGE },
    );
  return {
    queueUrl: line.delivery_dlq_url,
    endpointUrl: values["endpoint-url"] ?? line.sqs_endpoint,
    region: values.region ?? line.region,
  };
}

function readMax(text: string | undefined): number {
  if (text === undefined) return 1000;
  const max = Number(text);
  if (!Number.isInteger(max) || max < 1)
    throw new UsageError("--max must be a whole number ≥ 1", { usage: USAGE });
  return max;
}

function describeAnswer(answer: DeliveryFailure["last_answer"]): string {
  if (answer === undefined) return "no answer";
  return "status" in answer ? `HTTP ${answer.status} ${JSON.stringify(answer.body)}` : answer.error;
}

/** One block per failure, oldest first as the DLQ gave them. */
function formatFailures(failures: readonly DeliveryFailure[], queueUrl: string): string {
  if (failures.length === 0) return `no failed delivery in ${queueUrl}\n`;
  const blocks = failures.map((failure) =>
    [
      `${failure.target} → ${failure.destination}`,
      `  outcome      ${failure.payload.policy}/${failure.payload.id}: ${failure.payload.previous_status ?? "(new)"} → ${failure.payload.status}`,
      `  webhook-id   ${failure.delivery_id}`,
      `  attempts     ${failure.attempts}`,
      `  last answer  ${describeAnswer(failure.last_answer)}`,
      `  reason       ${failure.reason}`,
      `  failed at    ${failure.failed_at}`,
    ]
      .map(inertText)
      .join("\n"),
  );
  return `${failures.length} failed delivery(ies) in ${queueUrl}\n\n${blocks.join("\n\n")}\n`;
}
