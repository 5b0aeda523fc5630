/**
 * `decisions submit <items.jsonl | event.json> --queue-url … | --up-info …`: sends work items or
 * EventBridge events to a work queue (fauxqs locally, or SQS) with SendMessageBatch, each body
 * exactly as written in the file, and reports every entry that did not get there. With `--up-info`
 * (a saved `decisions up` line) each message goes to its lane's queue: `--lane`, else its policy's
 * declared lane, else interactive. With `--url` (a front door, `decisions up`'s `submit_url`) the
 * items are posted over HTTP as a signed webhook sender and each item's answer is reported.
 */
import { join, resolve } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { MAX_INTAKE_BODY_BYTES } from "../../contract/intake/index.js";
import { DEFAULT_ITEM_LANE, LANES, type Lane, LaneSchema } from "../../contract/lanes/lanes.js";
import { parseWebhookSecret, WebhookSecretError } from "../../core/intake/index.js";
import { SUPERSEDE_ANY, SUPERSEDE_ATTRIBUTE } from "../../core/outcomes/index.js";
import { loadPolicies } from "../../core/policy/index.js";
import { postWorkItems } from "../../operations/intake/index.js";
import {
  createSqsClient,
  type FailedEntry,
  laneOfMessage,
  readMessageFile,
  readUpInfo,
  submitMessages,
} from "../../operations/queue/index.js";
import { UsageError } from "../errors.js";
import { inertText } from "../inertText.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

/** Usage text of `decisions submit`. */
export function submitUsage(): string {
  return [
    "usage: decisions submit <items.jsonl | event.json> --queue-url <url> [--supersede] [--endpoint-url <url>] [--region <r>]",
    "       decisions submit <items.jsonl | event.json> --up-info <up.json> [--lane interactive|bulk] [--policies <folder>] [--supersede]",
    "       decisions submit <items.jsonl | items.json> --url <submit_url> --webhook-secret <whsec_…> [--api-key <key>]",
    "",
    "Sends work items or EventBridge events to a queue with SendMessageBatch (10 per call). A .json file",
    "is one JSON document (an event, or an array of them); any other file is JSON Lines, one message per",
    "line. Each body is sent exactly as written (key order and numbers reach the model unchanged); a line",
    "that is not valid JSON is reported and not sent. Entries SQS fails on its side are sent again (up to",
    "5 attempts). Failures are listed on stderr (line, id, code, message); the exit code is 1 if any.",
    "",
    "Lanes: the pipeline has an interactive lane (decided first: incidents, tickets one at a time) and a",
    "bulk lane (work nobody waits on item by item), each its own queue. --queue-url sends everything to",
    "the queue it names. --up-info picks each message's lane's queue from `decisions up`'s JSON line saved",
    "to a file (`decisions up > up.json`; its queue_urls, sqs_endpoint and region): the lane is --lane,",
    "else the lane the item's policy declares (`lane:` in the policy file), else interactive (also for",
    "EventBridge events, as the deployed incident rule targets the interactive lane).",
    "",
    "Front door: --url posts the work items to the front door (decisions up's submit_url, or the deployed",
    "API's /v1/webhooks/work-items) as a webhook sender, in batches of up to 100 items and 1 MiB, each",
    "signed the Standard Webhooks way with --webhook-secret; the front door validates each item and puts",
    "it on its policy's lane. Each item refused (400 naming the field, 404 unknown policy) is listed on",
    "stderr and the rest of its batch is sent again without it; 409, 429 and 5xx are retried. A batch",
    "sent again is the same webhook message: the front door answers it with its first answer.",
    "",
    "options:",
    "  --url <submit_url>     the front door's webhook route (leave out --queue-url and --up-info)",
    "  --webhook-secret <s>   with --url: the senders' secret (whsec_…), as decisions up --webhook-secret",
    "  --api-key <key>        with --url on AWS: the caller's API Gateway API key (sent as x-api-key)",
    "  --queue-url <url>      the queue to send everything to (an SQS queue URL, or one of up's queue_urls)",
    "  --up-info <file>       decisions up's JSON line, saved: send each message to its lane's queue",
    "  --lane <lane>          with --up-info: interactive or bulk, for every message",
    "  --policies <folder>    with --up-info and no --lane: the policies whose `lane` applies (default:",
    "                         this package's policies/, as decisions up uses)",
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
          "up-info": { type: "string" },
          url: { type: "string" },
          "webhook-secret": { type: "string" },
          "api-key": { type: "string" },
          lane: { type: "string" },
          policies: { type: "string" },
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
      if (values.url !== undefined) return submitThroughFrontDoor(file, values, usage, stdout, stderr);
      const route = await routeOf(values, usage);
      const target = { region: route.region, endpointUrl: route.endpointUrl };
      const sqs = createSqsClient(target, route.anyQueueUrl);
      try {
        const report = await submitMessages({
          sqs,
          queueUrl: route.queueUrl,
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
          `sent ${report.sent.length} of ${total} message(s) to ${describeTargets(report.sent, route)}` +
            (report.failed.length > 0 ? `; ${report.failed.length} failed\n` : "\n"),
        );
        return report.failed.length > 0 ? 1 : 0;
      } finally {
        sqs.destroy();
      }
    },
  };
}

/**
 * `--url`: the file's items posted to the front door, signed; each refused item on stderr.
 * @returns the exit code: 0 when every item was accepted, else 1.
 */
async function submitThroughFrontDoor(
  file: string,
  values: {
    url?: string;
    "webhook-secret"?: string;
    "api-key"?: string;
    "queue-url"?: string;
    "up-info"?: string;
    lane?: string;
    supersede?: boolean;
  },
  usage: string,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  if (
    values["queue-url"] !== undefined ||
    values["up-info"] !== undefined ||
    values.lane !== undefined ||
    values.supersede === true
  )
    throw new UsageError(
      "--url sends through the front door, which picks each item's lane: leave out --queue-url, --up-info, --lane and --supersede",
      { usage },
    );
  const secret = values["webhook-secret"];
  if (secret === undefined)
    throw new UsageError("--url needs --webhook-secret <whsec_…>: the secret decisions up was started with", {
      usage,
    });
  let checked: string;
  try {
    checked = parseWebhookSecret(secret, "--webhook-secret");
  } catch (error) {
    if (error instanceof WebhookSecretError) throw new UsageError(error.message, { usage });
    throw error;
  }
  const url = values.url ?? "";
  if (!URL.canParse(url) || !["http:", "https:"].includes(new URL(url).protocol))
    throw new UsageError(
      `--url must be the front door's http(s) URL (decisions up's submit_url, or the deployed API's /v1/webhooks/work-items), got ${JSON.stringify(url)}`,
      { usage },
    );
  const { messages, refused } = await readMessageFile(file, { maxMessageBytes: MAX_INTAKE_BODY_BYTES });
  for (const entry of refused)
    stderr.write(
      `${inertText(`line ${entry.line}${entry.id === undefined ? "" : ` (id ${entry.id})`}: ${entry.code}: ${entry.message}`)}\n`,
    );
  if (messages.length + refused.length === 0) {
    stderr.write(`${file}: no messages in the file\n`);
    return 1;
  }
  const results = await postWorkItems(messages, {
    url,
    secret: checked,
    ...(values["api-key"] === undefined ? {} : { apiKey: values["api-key"] }),
  });
  const accepted = results.filter((result) => result.ok);
  for (const result of results) {
    if (result.ok) continue;
    const where = result.id === undefined ? `line ${result.line}` : `line ${result.line} (id ${result.id})`;
    stderr.write(`${inertText(`${where}: ${result.status} ${result.reason}: ${result.message}`)}\n`);
  }
  const lanes = new Map<string, number>();
  for (const result of accepted) if (result.ok) lanes.set(result.lane, (lanes.get(result.lane) ?? 0) + 1);
  const replayed = accepted.filter((result) => result.ok && result.replayed).length;
  stdout.write(
    `accepted ${accepted.length} of ${results.length + refused.length} item(s) at ${values.url}` +
      (lanes.size > 0
        ? ` (${[...lanes].map(([lane, count]) => `${count} to the ${lane} lane`).join(", ")})`
        : "") +
      (replayed > 0 ? `; ${replayed} had been accepted before (the first answer given again)` : "") +
      "\n",
  );
  return accepted.length === results.length && refused.length === 0 ? 0 : 1;
}

/** Where submit sends: one queue, or each message's lane's queue. */
interface Route {
  queueUrl: string | ((message: { body: string }) => string);
  /** A queue URL the SQS client may take its region from. */
  anyQueueUrl: string;
  region: string | undefined;
  endpointUrl: string | undefined;
  /** The lane of each queue, with --up-info. */
  laneOfQueue: ReadonlyMap<string, Lane>;
}

async function routeOf(
  values: {
    "queue-url"?: string;
    "up-info"?: string;
    lane?: string;
    policies?: string;
    region?: string;
    "endpoint-url"?: string;
  },
  usage: string,
): Promise<Route> {
  const queueUrl = values["queue-url"];
  const upInfo = values["up-info"];
  if (queueUrl !== undefined && queueUrl !== "") {
    if (upInfo !== undefined || values.lane !== undefined)
      throw new UsageError(
        "--queue-url names the queue itself: leave out --up-info and --lane, or use them instead of it",
        { usage },
      );
    return {
      queueUrl,
      anyQueueUrl: queueUrl,
      region: values.region,
      endpointUrl: values["endpoint-url"],
      laneOfQueue: new Map(),
    };
  }
  if (upInfo === undefined || upInfo === "")
    throw new UsageError(
      "give --queue-url <url>, or --up-info <file> holding decisions up's JSON line (decisions up > up.json) to send to a lane's queue",
      { usage },
    );
  let lane: Lane | undefined;
  if (values.lane !== undefined) {
    const parsed = LaneSchema.safeParse(values.lane);
    if (!parsed.success)
      throw new UsageError(`--lane must be one of ${LANES.join(", ")}, got "${values.lane}"`, { usage });
    lane = parsed.data;
  }
  const info = await readUpInfo(upInfo);
  const policyLanes = new Map<string, Lane>();
  if (lane === undefined) {
    const folder = values.policies === undefined ? join(packageRoot(), "policies") : resolve(values.policies);
    const policies = await loadPolicies(folder);
    for (const name of policies.names()) {
      const declared = policies.get(name)?.lane;
      if (declared !== undefined) policyLanes.set(name, declared);
    }
  }
  return {
    queueUrl: (message) => info.queueUrls[lane ?? laneOfMessage(message.body, policyLanes)],
    anyQueueUrl: info.queueUrls[DEFAULT_ITEM_LANE],
    region: values.region ?? info.region,
    endpointUrl: values["endpoint-url"] ?? info.sqsEndpoint,
    laneOfQueue: new Map(LANES.map((name) => [info.queueUrls[name], name])),
  };
}

/** `<url>`, or per queue `N to <url> (lane)`. */
function describeTargets(sent: readonly { queueUrl: string }[], route: Route): string {
  if (typeof route.queueUrl === "string") return route.queueUrl;
  const counts = new Map<string, number>();
  for (const entry of sent) counts.set(entry.queueUrl, (counts.get(entry.queueUrl) ?? 0) + 1);
  if (counts.size === 0) return "no queue";
  return [...counts]
    .map(([url, count]) => `${count} to the ${route.laneOfQueue.get(url) ?? "?"} lane (${url})`)
    .join(", ");
}

/** The `decisions submit` command, writing to the process's stdout and stderr. */
export const submitCommand: CliCommand = createSubmitCommand();

function describeFailure(entry: FailedEntry): string {
  const where = entry.id === undefined ? `line ${entry.line}` : `line ${entry.line} (id ${entry.id})`;
  const attempts = entry.attempts > 1 ? ` after ${entry.attempts} attempts` : "";
  return `${where}: ${entry.code}${attempts}: ${entry.message}`;
}
