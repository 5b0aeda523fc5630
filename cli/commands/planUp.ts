/**
 * What `decisions up` is asked to do, decided from its flags alone: print the usage, or start the
 * stack with the options the flags give. Nothing is loaded or started here; `upCommand` checks the
 * files the flags name (the policies, the shadow model) and runs the stack.
 */
import { join, resolve } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { parseWebhookSecret, WebhookSecretError } from "../../core/intake/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import {
  type LocalStackArgs,
  localStackFlags,
  localStackUsage,
  readLocalStackArgs,
  shadowModelFlag,
  shadowModelUsage,
} from "./localStackArgs.js";

/** Usage text of `decisions up`. */
export function upUsage(): string {
  return [
    "usage: decisions up [options]",
    "",
    "Starts DynamoDB Local, fauxqs (SQS + S3), the adapter, the SageMaker gateway and, per lane",
    "(interactive, bulk), a work queue with its DLQ and the decide function behind an SQS event source",
    "poller; prints one JSON line on stdout when ready (region, sqs_endpoint, queue_urls and dlq_urls",
    "— {interactive, bulk} —, queue_url and dlq_url — the interactive lane's —, dynamodb_endpoint, table,",
    "s3_endpoint, bucket, gateway_url, endpoint_name, adapter_url, review_url, submit_url, ingest_prefix, …; with",
    "--shadow-model also shadow_adapter_url, shadow_endpoint_name, shadow_model, shadow_model_sha256); runs",
    "until SIGINT or SIGTERM, then stops everything. review_url is the review console (127.0.0.1, no",
    "sign-in): the items waiting for a person. A JSONL object put into the bucket under ingest_prefix",
    "(and ending in ingest_suffix, .jsonl) is ingested as the deployed S3 event rule does: a job, one",
    "work item per line, in the bulk lane. Interactive work (incidents, tickets one at a time) goes to",
    "queue_urls.interactive and is decided ahead of a draining job. Save the line to pick a lane's",
    "queue by name later: `decisions up > up.json`, then `decisions submit … --up-info up.json`.",
    "When a loaded policy has a deliver: section, each status change of its outcomes is delivered to",
    "its targets (signed webhooks; env: secrets read from this environment), and deliveries given up",
    "on wait in delivery_dlq_url: `decisions deliveries list|redrive --up-info up.json` (docs/deliveries.md).",
    "",
    "options:",
    "  --policies <folder>          the policy files the decide and ingest functions and the review",
    "                               console use (default: this package's policies/)",
    "  --review-port <n>            port of the review console on 127.0.0.1 (default: a free one)",
    "  --reviewer <name>            the reviewer's name when the console's page names none",
    "  --webhook-secret <whsec_…>   the webhook senders' shared secret (Standard Webhooks): the front door",
    "                               at submit_url takes work items signed with it; without it, every",
    "                               request there is refused with 401 (docs/integrations.md)",
    ...localStackUsage(),
    ...shadowModelUsage(),
    "",
    "the event sources (the CDK app's template's; each lane's concurrency is its share of the local",
    "adapter: interactive 2 invocations × 1 call, bulk 2 × 3):",
    ...EVENT_SOURCE_FLAGS.map(
      ({ flag, what, fallback }) => `  --${flag.padEnd(27)}${what} (default ${fallback})`,
    ),
    "Records the function gives back are logged on stderr (warn level) and keep a failure record;",
    "`decisions dlq list` and `decisions outcomes show` read it.",
    "",
  ].join("\n");
}

/** up's event-source flags: the queue's and the mapping's settings, over the template's. */
const EVENT_SOURCE_FLAGS = [
  {
    flag: "function-timeout",
    what: "the decide function's timeout, in seconds (1–900)",
    fallback: "the template's, 120",
    min: 1,
    max: 900,
  },
  {
    flag: "visibility-timeout",
    what: "the work queues' visibility timeout, in seconds: how long a record given back waits (0–43200)",
    fallback: "the template's, 721; with --function-timeout 6 × it",
    min: 0,
    max: 43_200,
  },
  {
    flag: "max-receive-count",
    what: "receives before a message moves to the DLQ (1–1000)",
    fallback: "the template's, 5",
    min: 1,
    max: 1000,
  },
  {
    flag: "batch-size",
    what: "records per invocation at most, both lanes (1–10000)",
    fallback: "the template's, interactive 1, bulk 10",
    min: 1,
    max: 10_000,
  },
  {
    flag: "batch-window",
    what: "how long a batch keeps gathering records, in milliseconds, both lanes (0–300000)",
    fallback: "the template's, 1000 both lanes",
    min: 0,
    max: 300_000,
  },
] as const;

type EventSourceFlag = (typeof EVENT_SOURCE_FLAGS)[number]["flag"];

/** The stack options the event-source flags set (only those given: startLocalStack applies the rest). */
function readEventSourceArgs(values: Record<string, unknown>, usage: string): UpEventSourceOptions {
  const read = (flag: EventSourceFlag): number | undefined => {
    const text = values[flag];
    if (typeof text !== "string") return undefined;
    const { min, max } = EVENT_SOURCE_FLAGS.find((entry) => entry.flag === flag) ?? { min: 0, max: 0 };
    const number = Number(text);
    if (!/^\d+$/.test(text) || number < min || number > max) {
      throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got "${text}"`, { usage });
    }
    return number;
  };
  const functionTimeout = read("function-timeout");
  const visibility = read("visibility-timeout");
  const maxReceiveCount = read("max-receive-count");
  const batchSize = read("batch-size");
  const batchWindow = read("batch-window");
  return {
    ...(functionTimeout !== undefined ? { functionTimeoutMs: functionTimeout * 1000 } : {}),
    ...(visibility !== undefined ? { visibilityTimeoutSeconds: visibility } : {}),
    ...(maxReceiveCount !== undefined ? { maxReceiveCount } : {}),
    poller: {
      ...(batchSize !== undefined ? { batchSize } : {}),
      ...(batchWindow !== undefined ? { maximumBatchingWindowMs: batchWindow } : {}),
    },
  };
}

/** The stack options up's event-source flags set: only those given (`startLocalStack` applies the rest). */
export interface UpEventSourceOptions {
  /** `--function-timeout`, in milliseconds. */
  functionTimeoutMs?: number;
  /** `--visibility-timeout`. */
  visibilityTimeoutSeconds?: number;
  /** `--max-receive-count`. */
  maxReceiveCount?: number;
  /** Both lanes' pollers: `--batch-size` and `--batch-window` (milliseconds). */
  poller: { batchSize?: number; maximumBatchingWindowMs?: number };
}

/** The options a `decisions up` run is given, as its flags set them. */
export interface UpOptions {
  /** The local stack's options from the shared flags (model, ports, region, Java, …). */
  stack: LocalStackArgs["stack"];
  /** The decide function's Powertools log level: `--function-log-level`, default `WARN`. */
  functionLogLevel: LocalStackArgs["functionLogLevel"];
  eventSource: UpEventSourceOptions;
  /** `--policies`, resolved; default this package's `policies/`. */
  policyDir: string;
  /**
   * `--shadow-model` and `--shadow-timeout` as given: `readShadowModelArgs` checks them when the
   * command runs, as it must look for the file.
   */
  shadowFlags: { "shadow-model": string | undefined; "shadow-timeout": string | undefined };
  /** `--review-port` (checked by {@link readReviewPort} before anything starts) and `--reviewer`. */
  review: { port: number | undefined; reviewer: string | undefined };
  /** `--webhook-secret`, checked: the front door's sender secret; undefined refuses webhook requests. */
  webhookSecret: string | undefined;
}

/** What {@link planUp} decided: print the usage, or run with these options. */
export type UpPlan = { readonly mode: "help" } | { readonly mode: "up"; readonly options: UpOptions };

/**
 * Decides from `decisions up`'s arguments what to do: reads the flags and checks every number and
 * log level. Pure but for resolving `--policies` against the working folder: it reads no file and
 * takes the environment as given (`DECISIONS_MODEL`, and the environment the stack's processes
 * start from).
 *
 * @throws UsageError (carrying {@link upUsage}) for an unknown flag, a missing value or a positional,
 *   and, naming the flag, for a port (`--review-port` too), thread count, log level or event-source
 *   setting out of range.
 * @example
 * planUp(["--batch-size", "5"], {}); // { mode: "up", options: { eventSource: { poller: { batchSize: 5 } }, … } }
 */
export function planUp(args: readonly string[], env: Readonly<Record<string, string | undefined>>): UpPlan {
  const usage = upUsage();
  const { values } = parseCommandArgs({
    args,
    options: {
      ...localStackFlags(),
      ...shadowModelFlag(),
      policies: { type: "string" },
      "review-port": { type: "string" },
      reviewer: { type: "string" },
      "webhook-secret": { type: "string" },
      ...Object.fromEntries(EVENT_SOURCE_FLAGS.map(({ flag }) => [flag, { type: "string" as const }])),
    },
    usage,
  });
  if (values.help === true) return { mode: "help" };
  // Warn and error lines go to stderr (Powertools' console), so the stdout line stays one line.
  const { stack, functionLogLevel } = readLocalStackArgs(values, env, usage, "WARN");
  const eventSource = readEventSourceArgs(values, usage);
  return {
    mode: "up",
    options: {
      stack,
      functionLogLevel,
      eventSource,
      policyDir:
        typeof values.policies === "string" ? resolve(values.policies) : join(packageRoot(), "policies"),
      shadowFlags: { "shadow-model": values["shadow-model"], "shadow-timeout": values["shadow-timeout"] },
      review: {
        port:
          typeof values["review-port"] === "string"
            ? readReviewPort(values["review-port"], usage)
            : undefined,
        reviewer: values.reviewer,
      },
      webhookSecret:
        typeof values["webhook-secret"] === "string"
          ? readWebhookSecretFlag(values["webhook-secret"], usage)
          : undefined,
    },
  };
}

/**
 * `--webhook-secret`'s value, checked as a Standard Webhooks secret.
 * @throws UsageError saying how to make one.
 */
function readWebhookSecretFlag(text: string, usage: string): string {
  try {
    return parseWebhookSecret(text, "--webhook-secret");
  } catch (error) {
    if (error instanceof WebhookSecretError) throw new UsageError(error.message, { usage });
    throw error;
  }
}

/**
 * `--review-port`'s value as a port number.
 * @throws UsageError naming the flag when it is not an integer from 0 to 65535.
 */
export function readReviewPort(text: string, usage: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--review-port must be a port number (0–65535), not "${text}"`, { usage });
  return port;
}
