import {
  CreateTableCommand,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { createWorkQueue, type WorkQueue, type WorkQueueAttributes } from "../eventSource/createWorkQueue.js";
import type { LocalClients } from "./createLocalClients.js";
import type { TablePlan } from "./LocalStackPlan.js";
import { tableDefinitionOf } from "./tableDefinitionOf.js";

/** What {@link createStackResources} creates. */
export interface StackResourceSettings {
  /** The work queues' name prefix: `<queue>-<lane>`. */
  queue: string;
  /** Each lane's queue and DLQ attributes (the template's, or the caller's). */
  lanes: Record<Lane, WorkQueueAttributes>;
  /** fauxqs' endpoint, the host of the queue URLs. */
  endpoint: string;
  bucket: string;
  /** The outcomes table. */
  table: string;
  /** The outcomes table as the template declares it: keys, indexes, TTL, stream. */
  tableDefinition: TablePlan;
}

/**
 * Creates what the stack's functions use: per lane a work queue and its DLQ with the redrive
 * policy, tagged `lane=<lane>`; the ingest bucket; the outcomes table, unless a data folder from
 * an earlier run already holds it (then it is waited for).
 *
 * @returns each lane's queue.
 */
export async function createStackResources(
  clients: Required<Omit<LocalClients, "destroy">>,
  settings: StackResourceSettings,
): Promise<Record<Lane, WorkQueue>> {
  const queues = {} as Record<Lane, WorkQueue>;
  for (const lane of LANES) {
    queues[lane] = await createWorkQueue(clients.sqs, {
      name: `${settings.queue}-${lane}`,
      ...settings.lanes[lane],
      endpoint: settings.endpoint,
      tags: { lane },
    });
  }
  await clients.s3.send(new CreateBucketCommand({ Bucket: settings.bucket }));
  await createTableIfMissing(clients.dynamodb, settings.table, settings.tableDefinition);
  return queues;
}

/**
 * Creates a table as the template declares it (keys, indexes, stream), then its TTL, unless a data
 * folder from an earlier run already holds it (then it is waited for).
 */
export async function createTableIfMissing(
  dynamodb: DynamoDBClient,
  table: string,
  definition: TablePlan,
): Promise<void> {
  let created = false;
  try {
    await dynamodb.send(new CreateTableCommand(tableDefinitionOf(table, definition)));
    created = true;
  } catch (error) {
    // A data folder from an earlier run already holds it.
    if ((error as { name?: unknown }).name !== "ResourceInUseException") throw error;
  }
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 30 }, { TableName: table });
  if (created && definition.timeToLiveAttribute !== undefined) {
    await dynamodb.send(
      new UpdateTimeToLiveCommand({
        TableName: table,
        TimeToLiveSpecification: { AttributeName: definition.timeToLiveAttribute, Enabled: true },
      }),
    );
  }
}
