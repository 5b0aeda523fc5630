/**
 * `decisions submit <items.jsonl | event.json> --queue-url … | --up-info …`: sends work items or
 * EventBridge events to a work queue (fauxqs locally, or SQS) with SendMessageBatch, each body
 * exactly as written in the file, and reports every entry that did not get there. With `--up-info`
 * (a saved `decisions up` line) each message goes to its lane's queue: `--lane`, else its policy's
 * declared lane, else interactive.
 */
import { join, resolve } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { DEFAULT_ITEM_LANE, LANES, type Lane, LaneSchema } from "../../contract/lanes/lanes.js";
import { SUPERSEDE_ANY, SUPERSEDE_ATTRIBUTE } from "../../core/outcomes/index.js";
import { loadPolicies } from "../../core/policy/index.js";
import {
  createSqsClient,
  type FailedEntry,
  laneOfMessage,
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
    "options:",
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
