import type { Lane } from "../../contract/lanes/lanes.js";
import { UpInfoError } from "../common/errors.js";
import { readUpLine } from "../common/readUpLine.js";

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
 * Reads the JSON line `decisions up` printed, saved to a file (`decisions up > up.json`, read by
 * `readUpLine`): the region, the SQS endpoint and each lane's queue and DLQ URLs (`queue_urls`,
 * `dlq_urls`), and the outcomes table's endpoint and name.
 *
 * @throws UpInfoError when the file cannot be read, is not up's line, or names no lanes (a line of
 *   a `decisions up` from before lanes: start it again).
 */
export async function readUpInfo(path: string): Promise<UpInfo> {
  const info = await readUpLine(path);
  if (info.sqs_endpoint === undefined || info.queue_urls === undefined || info.dlq_urls === undefined)
    throw new UpInfoError(
      path,
      "is not the line of a decisions up with lanes (it names no sqs_endpoint, queue_urls or dlq_urls)",
    );
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

function lanesOf(path: string, key: string, urls: Partial<Record<string, string>>): Record<Lane, string> {
  const { interactive, bulk } = urls;
  if (interactive === undefined || bulk === undefined)
    throw new UpInfoError(path, `names no URL of every lane in ${key}`);
  return { interactive, bulk };
}
