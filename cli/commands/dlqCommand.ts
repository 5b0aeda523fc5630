/**
 * `decisions dlq list|redrive|purge-decided --queue-url <dlq> | --lane <lane> --up-info <file>`:
 * what is in a dead-letter queue and why, moving its messages back to the work queue of the lane
 * they came from (sent first, deleted from the DLQ only once sent), and dropping the copies of
 * items that have already ended (their outcome is stored).
 */
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { LANES, type Lane, LaneSchema } from "../../contract/lanes/lanes.js";
import { FailureRecordStore } from "../../core/failures/index.js";
import { endCheckOutstanding, JobsReader } from "../../core/jobs/index.js";
import { OutcomesReader } from "../../core/outcomes/index.js";
import { createOutcomesClient } from "../../operations/outcomes/index.js";
import {
  type AttachedFailures,
  attachDecidedOutcomes,
  attachFailureRecords,
  createSqsClient,
  type DeadLetter,
  findSourceQueues,
  type JobEndLookup,
  laneOfQueue,
  listDeadLetters,
  purgeDecidedLetters,
  readUpInfo,
  redriveDeadLetters,
} from "../../operations/queue/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertLines, inertText } from "../inertText.js";
import { parseSubCommandArgs } from "../parseSubCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

const DEFAULT_TABLE = "outcomes";

const USAGE = `usage:
  decisions dlq <list|redrive|purge-decided> --lane <interactive|bulk> --up-info <up.json> [options below]
  decisions dlq list    --queue-url <dlq url> [--max N] [--json] [--endpoint-url <url>] [--region <r>]
                        [--table <outcomes table>] [--jobs-table <jobs table>] [--dynamodb-endpoint-url <url>]
  decisions dlq redrive --queue-url <dlq url> [--to <work queue url>] [--max N] [--endpoint-url <url>] [--region <r>]
  decisions dlq purge-decided --queue-url <dlq url> [--max N] [--endpoint-url <url>] [--region <r>]
                        [--table <outcomes table>] [--jobs-table <jobs table>] [--dynamodb-endpoint-url <url>]

Each lane (interactive, bulk) has its own work queue and dead-letter queue. --lane with --up-info (the
JSON line of a running decisions up, saved: decisions up > up.json) picks the lane's DLQ from its
dlq_urls, and takes the SQS and DynamoDB endpoints, region, outcomes and jobs tables from it too.

list     shows each message of the dead-letter queue without consuming it: message id, policy and item
         id (or the event's source and detail-type), how often it was received, when it was sent and
         first received, why it failed — the reason the message carries, or the decide function's
         failure record of it (its last reason, attempts and time, read from the outcomes table) — and
         a preview of its body (--json: one JSON object per message). A message whose item's outcome is
         already stored (a copy that reached the DLQ after its item ended) is labelled "already decided
         (a duplicate copy): safe to purge" (--json: a "decided" object) — unless it is a batch job's
         line whose job has every line ended but no end yet (the writer of its last line stopped before
         its end check; this message's redelivery would run it), or a job line whose job was not read
         (no --jobs-table): then it is "not safe to purge yet" with why (--json: "decided.held").
         Listing counts as one receive of each message.
redrive  moves messages back: each is sent to the work queue (body and attributes unchanged) and only
         then deleted from the dead-letter queue. --to defaults to the queue whose redrive policy names
         the dead-letter queue — each lane's DLQ is its own queue's, so a message returns to the lane
         it came from (SQS's ListDeadLetterSourceQueues, or every queue's RedrivePolicy where
         the service lacks that action, as the local stack's does). The exit code is 1 when any message
         was not moved.
purge-decided
         deletes from the dead-letter queue only the messages whose item's outcome is stored (the
         copies list labels "already decided: safe to purge"); a message whose outcome is absent, that
         asks to replace whatever is stored (supersede "*"), that names no item, or that list calls
         "not safe to purge yet" (a job's end depends on it) is left in the queue. It
         reads the outcomes as list does, and refuses to run when it cannot. The exit code is 1 when
         a copy could not be deleted.

options:
  --queue-url <url>      the dead-letter queue
  --lane <lane>          with --up-info: the lane whose dead-letter queue (interactive or bulk)
  --up-info <file>       decisions up's JSON line, saved: the lane's DLQ and the local endpoints
  --to <url>             redrive: the queue to move messages to
  --max <n>              at most this many messages (default: list 1000, redrive all)
  --endpoint-url <url>   an SQS endpoint other than AWS's, e.g. http://127.0.0.1:<port> (fauxqs)
  --region <region>      default: the SDK's configuration, the queue URL's region, or us-east-1 locally
  --table <name>         list, purge-decided: the outcomes table, holding the outcomes and failure records (default "${DEFAULT_TABLE}",
                         as the local stack names it; the deployed stack's is its OutcomesTableName output)
  --jobs-table <name>    list, purge-decided: the jobs table (the deployed stack's JobsTableName output; up's
                         jobs_table), read for the messages that are batch job lines
  --dynamodb-endpoint-url <url>
                         list, purge-decided: a DynamoDB endpoint other than AWS's (DynamoDB Local: up's
                         dynamodb_endpoint). With --endpoint-url and without this, list reads no failure record or
                         outcome, and purge-decided refuses to run.
`;

const FLAGS = {
  "queue-url": { type: "string" },
  lane: { type: "string" },
  "up-info": { type: "string" },
  to: { type: "string" },
  max: { type: "string" },
  json: { type: "boolean" },
  "endpoint-url": { type: "string" },
  region: { type: "string" },
  table: { type: "string" },
  "jobs-table": { type: "string" },
  "dynamodb-endpoint-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Builds the `decisions dlq` command writing to the given streams (tests pass their own). */
export function createDlqCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      // Which flag goes with which sub-command is checked below, with messages of its own.
      const parsed = parseSubCommandArgs({
        command: "dlq",
        args,
        options: FLAGS,
        subFlags: { list: [], redrive: [], "purge-decided": [] },
        sharedFlags: Object.keys(FLAGS),
        usage: USAGE,
      });
      if (parsed.help) {
        stdout.write(USAGE);
        return 0;
      }
      const { sub } = parsed;
      const { values, dlqUrl } = await withLane(parsed.values, sub === "redrive");
      const max = readMax(values.max);
      if (sub !== "redrive" && values.to !== undefined)
        throw new UsageError("--to is for redrive", { usage: USAGE });
      if (sub !== "list" && values.json === true)
        throw new UsageError("--json is for list", { usage: USAGE });
      if (
        sub === "redrive" &&
        (values.table !== undefined ||
          values["jobs-table"] !== undefined ||
          values["dynamodb-endpoint-url"] !== undefined)
      )
        throw new UsageError(
          "--table, --jobs-table and --dynamodb-endpoint-url are for list and purge-decided",
          {
            usage: USAGE,
          },
        );
      if (sub === "purge-decided" && outcomesEndpoint(values) === null) {
        throw new UsageError(
          "purge-decided reads each message's outcome: with --endpoint-url, give --dynamodb-endpoint-url (and --table)",
          { usage: USAGE },
        );
      }
      const sqs = createSqsClient({ region: values.region, endpointUrl: values["endpoint-url"] }, dlqUrl);
      try {
        if (sub === "list") {
          const listed = await listDeadLetters(sqs, dlqUrl, max === undefined ? {} : { max });
          const { letters, unreadable } = await withFailureRecords(listed, values);
          const { lane, unreadable: laneUnknown } = await laneOfQueue(sqs, dlqUrl);
          for (const note of [...unreadable, ...(laneUnknown === undefined ? [] : [laneUnknown])])
            stderr.write(`${inertText(`note: ${note}`)}\n`);
          if (values.json === true)
            for (const letter of letters)
              stdout.write(`${inertJson(lane === undefined ? letter : { ...letter, lane })}\n`);
          else stdout.write(formatLetters(letters, dlqUrl, lane));
          return 0;
        }
        if (sub === "purge-decided") return await purgeDecided(sqs, dlqUrl, max, values, stdout, stderr);
        return await redrive(sqs, dlqUrl, values.to, max, stdout, stderr);
      } finally {
        sqs.destroy();
      }
    },
  };
}

type FlagValues = {
  "queue-url"?: string | undefined;
  lane?: string | undefined;
  "up-info"?: string | undefined;
  to?: string | undefined;
  max?: string | undefined;
  json?: boolean | undefined;
  region?: string | undefined;
  table?: string | undefined;
  "jobs-table"?: string | undefined;
  "endpoint-url"?: string | undefined;
  "dynamodb-endpoint-url"?: string | undefined;
};

/**
 * The dead-letter queue and the flags' values: `--queue-url` as given, or with `--lane` and
 * `--up-info` the lane's DLQ from up's line, whose endpoints, region and table fill the flags not
 * given.
 */
async function withLane<T extends FlagValues>(
  values: T,
  /** Redrive reads no table: the table's endpoint and name are not filled in. */
  sqsOnly: boolean,
): Promise<{ values: T; dlqUrl: string }> {
  const given = values["queue-url"];
  const upInfo = values["up-info"];
  if (given !== undefined && given !== "") {
    if (values.lane !== undefined || upInfo !== undefined)
      throw new UsageError(
        "--queue-url names the dead-letter queue itself: leave out --lane and --up-info, or use them instead of it",
        { usage: USAGE },
      );
    return { values, dlqUrl: given };
  }
  if (values.lane === undefined || upInfo === undefined)
    throw new UsageError(
      "give --queue-url <dlq url>, or --lane <interactive|bulk> with --up-info <file> holding decisions up's JSON line (decisions up > up.json)",
      { usage: USAGE },
    );
  const parsed = LaneSchema.safeParse(values.lane);
  if (!parsed.success)
    throw new UsageError(`--lane must be one of ${LANES.join(", ")}, got "${values.lane}"`, { usage: USAGE });
  const lane: Lane = parsed.data;
  const info = await readUpInfo(upInfo);
  return {
    dlqUrl: info.dlqUrls[lane],
    values: {
      ...values,
      region: values.region ?? info.region,
      "endpoint-url": values["endpoint-url"] ?? info.sqsEndpoint,
      ...(sqsOnly
        ? {}
        : {
            "dynamodb-endpoint-url": values["dynamodb-endpoint-url"] ?? info.dynamodbEndpoint,
            table: values.table ?? info.table,
            "jobs-table": values["jobs-table"] ?? info.jobsTable,
          }),
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

async function purgeDecided(
  sqs: SQSClient,
  dlqUrl: string,
  max: number | undefined,
  values: Values,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  const client = createOutcomesClient({
    region: values.region,
    endpointUrl: outcomesEndpoint(values) ?? undefined,
  });
  try {
    const reader = new OutcomesReader({ client, tableName: values.table ?? DEFAULT_TABLE });
    const jobs = jobEndLookup(client, values);
    const report = await purgeDecidedLetters(sqs, reader, {
      dlqUrl,
      ...(max === undefined ? {} : { max }),
      ...(jobs === undefined ? {} : { jobs }),
    });
    for (const failed of report.failed) {
      stderr.write(
        inertLines(
          `${failed.messageId} ${describeItem(failed)}: not deleted (still in the DLQ): ${failed.code}: ${failed.message}\n`,
        ),
      );
    }
    stdout.write(
      `purged ${report.purged.length} already-decided message(s) from ${dlqUrl}; ` +
        `${report.kept.length} left (no outcome stored, a supersede, no item, or a job's end depends on it)` +
        (report.failed.length > 0 ? `; ${report.failed.length} not deleted\n` : "\n"),
    );
    return report.failed.length > 0 ? 1 : 0;
  } finally {
    client.destroy();
  }
}

function formatLetters(letters: readonly DeadLetter[], dlqUrl: string, lane: Lane | undefined): string {
  const where = lane === undefined ? dlqUrl : `${dlqUrl} (the ${lane} lane's dead-letter queue)`;
  if (letters.length === 0) return `no messages in ${where}\n`;
  const lines = [`${letters.length} message(s) in ${where}:`];
  for (const letter of letters) {
    lines.push("");
    lines.push(`${letter.messageId}  ${describeItem(letter)}`);
    lines.push(
      `  received ${letter.receiveCount} time(s)` +
        (letter.sentAt ? `; sent ${letter.sentAt}` : "") +
        (letter.firstReceivedAt ? `; first received ${letter.firstReceivedAt}` : ""),
    );
    if (letter.sourceArn) lines.push(`  from ${letter.sourceArn}`);
    const { decided } = letter;
    if (decided?.held !== undefined) {
      lines.push(
        `  already decided (outcome ${decided.status}, updated ${decided.updatedAt}), but not safe to purge yet: ${decided.held}`,
      );
    } else if (decided !== undefined) {
      lines.push(
        `  already decided (a duplicate copy): safe to purge (dlq purge-decided); outcome ${decided.status}, updated ${decided.updatedAt}`,
      );
    }
    if (letter.reason !== undefined) lines.push(`  reason: ${letter.reason}`);
    else if (decided === undefined) {
      lines.push(
        "  reason: none recorded (no failure record: the consumer timed out or failed before writing one, or the records were not read)",
      );
    }
    const { failure } = letter;
    if (failure !== undefined) {
      lines.push(
        `  last failure: ${failure.lastFailedAt} at receive ${failure.attempts}, ${failure.error} (${failure.failureClass}); first ${failure.firstFailedAt}`,
      );
    }
    if (letter.attributes.length > 0) lines.push(`  attributes: ${letter.attributes.join(", ")}`);
    lines.push(`  body (${letter.body.bytes} bytes): ${letter.body.preview}`);
  }
  // Ids, reasons and bodies come from producers: each line is shown inert (no cursor movement, no
  // repainted line).
  return `${lines.map(inertText).join("\n")}\n`;
}

/**
 * The outcomes table's DynamoDB endpoint: `--dynamodb-endpoint-url`, or AWS's (undefined) when SQS
 * is AWS's too (no `--endpoint-url`); null for an emulator's SQS without one — an emulator's SQS
 * with AWS's DynamoDB is never a pair.
 */
function outcomesEndpoint(values: Values): string | undefined | null {
  const endpointUrl = values["dynamodb-endpoint-url"];
  if (endpointUrl === undefined && values["endpoint-url"] !== undefined) return null;
  return endpointUrl;
}

/**
 * The letters with their failure records and, for the copies of items that have ended, their
 * stored outcomes, read from the outcomes table at {@link outcomesEndpoint}; nothing is read where
 * that is null.
 */
async function withFailureRecords(
  letters: DeadLetter[],
  values: Values,
): Promise<{ letters: DeadLetter[]; unreadable: string[] }> {
  if (letters.length === 0) return { letters, unreadable: [] };
  const endpointUrl = outcomesEndpoint(values);
  if (endpointUrl === null) {
    return {
      letters,
      unreadable: [
        "failure records and outcomes not read: with --endpoint-url, give --dynamodb-endpoint-url (and --table) to read the reasons the decide function recorded",
      ],
    };
  }
  const client = createOutcomesClient({ region: values.region, endpointUrl });
  try {
    const tableName = values.table ?? DEFAULT_TABLE;
    const failures: AttachedFailures = await attachFailureRecords(
      letters,
      new FailureRecordStore({ client, tableName }),
    );
    const outcomes = await attachDecidedOutcomes(
      failures.letters,
      new OutcomesReader({ client, tableName }),
      jobEndLookup(client, values),
    );
    return {
      letters: outcomes.letters,
      unreadable: [failures.unreadable, outcomes.unreadable].filter((note) => note !== undefined),
    };
  } finally {
    client.destroy();
  }
}

/**
 * The jobs table at the outcomes table's endpoint (`--jobs-table`), as the DLQ commands read it:
 * whether a job's end check is outstanding. Undefined without `--jobs-table`.
 */
function jobEndLookup(client: DynamoDBDocumentClient, values: Values): JobEndLookup | undefined {
  const tableName = values["jobs-table"];
  if (tableName === undefined) return undefined;
  const reader = new JobsReader({ client, tableName });
  return {
    tableName,
    async endCheckOutstanding(jobId) {
      const job = await reader.find(jobId);
      return job !== undefined && endCheckOutstanding(job);
    },
  };
}

type Values = {
  region?: string | undefined;
  table?: string | undefined;
  "jobs-table"?: string | undefined;
  "endpoint-url"?: string | undefined;
  "dynamodb-endpoint-url"?: string | undefined;
};

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
