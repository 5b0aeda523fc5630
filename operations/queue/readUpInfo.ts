import { readFile } from "node:fs/promises";
import { z } from "zod";
import { type Lane, LaneSchema } from "../../contract/lanes/lanes.js";
import { UpInfoError } from "./errors.js";

const PerLaneUrls = z.record(LaneSchema, z.string().url());

/** The part of `decisions up`'s JSON line the queue commands read. */
const UpInfoSchema = z.object({
  region: z.string().min(1),
  sqs_endpoint: z.string().url(),
  queue_urls: PerLaneUrls,
  dlq_urls: PerLaneUrls,
  dynamodb_endpoint: z.string().url().optional(),
  table: z.string().min(1).optional(),
  jobs_table: z.string().min(1).optional(),
});

/** What a saved `decisions up` line tells the queue commands: where each lane's queues are. */
export interface UpInfo {
  region: string;
  /** fauxqs: the SQS endpoint of every queue below. */
  sqsEndpoint: string;
  queueUrls: Record<Lane, string>;
  dlqUrls: Record<Lane, string>;
  /** DynamoDB Local, holding the outcomes table (failure records, outcomes). */
  dynamodbEndpoint?: string;
  table?: string;
  /** The jobs table, when the stack keeps jobs. */
  jobsTable?: string;
}

/**
 * Reads the JSON line `decisions up` printed, saved to a file (`decisions up > up.json`): the
 * region, the SQS endpoint and each lane's queue and DLQ URLs (`queue_urls`, `dlq_urls`), and the
 * outcomes table's endpoint and name. The first non-blank line is read, so the file may be the
 * whole of up's stdout.
 *
 * @throws UpInfoError when the file cannot be read, is not up's line, or names no lanes (a line of
 *   a `decisions up` from before lanes: start it again).
 */
export async function readUpInfo(path: string): Promise<UpInfo> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UpInfoError(path, `cannot be read (${(error as Error).message})`, { cause: error });
  }
  const line = text.split("\n").find((candidate) => candidate.trim() !== "");
  let json: unknown;
  try {
    json = JSON.parse(line ?? "");
  } catch (error) {
    throw new UpInfoError(path, "does not start with a JSON line", { cause: error });
  }
  const parsed = UpInfoSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(line)"}: ${issue.message}`,
    );
    throw new UpInfoError(path, `is not the line of a decisions up with lanes (${problems.join("; ")})`, {
      cause: parsed.error,
    });
  }
  const info = parsed.data;
  return {
    region: info.region,
    sqsEndpoint: info.sqs_endpoint,
    queueUrls: lanesOf(path, "queue_urls", info.queue_urls),
    dlqUrls: lanesOf(path, "dlq_urls", info.dlq_urls),
    ...(info.dynamodb_endpoint === undefined ? {} : { dynamodbEndpoint: info.dynamodb_endpoint }),
    ...(info.table === undefined ? {} : { table: info.table }),
    ...(info.jobs_table === undefined ? {} : { jobsTable: info.jobs_table }),
  };
}

function lanesOf(path: string, key: string, urls: Partial<Record<Lane, string>>): Record<Lane, string> {
  const { interactive, bulk } = urls;
  if (interactive === undefined || bulk === undefined)
    throw new UpInfoError(path, `names no URL of every lane in ${key}`);
  return { interactive, bulk };
}
