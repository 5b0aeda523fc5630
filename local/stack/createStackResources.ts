import { CreateTableCommand, type DynamoDBClient, waitUntilTableExists } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { outcomesTableDefinition } from "../../core/outcomes/outcomesTable.js";
import { createWorkQueue, type WorkQueue } from "../eventSource/createWorkQueue.js";
import type { LocalClients } from "./createLocalClients.js";

/** What {@link createStackResources} creates. */
export interface StackResourceSettings {
  /** The work queues' name prefix: `<queue>-<lane>`. */
  queue: string;
  /** Receives before a lane's DLQ. */
  maxReceiveCount: number;
  visibilityTimeoutSeconds: number;
  /** fauxqs' endpoint, the host of the queue URLs. */
  endpoint: string;
  bucket: string;
  /** The outcomes table. */
  table: string;
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
      maxReceiveCount: settings.maxReceiveCount,
      visibilityTimeoutSeconds: settings.visibilityTimeoutSeconds,
      endpoint: settings.endpoint,
      tags: { lane },
    });
  }
  await clients.s3.send(new CreateBucketCommand({ Bucket: settings.bucket }));
  await createTableIfMissing(clients.dynamodb, settings.table);
  return queues;
}

async function createTableIfMissing(dynamodb: DynamoDBClient, table: string): Promise<void> {
  try {
    await dynamodb.send(new CreateTableCommand(outcomesTableDefinition(table)));
  } catch (error) {
    // A data folder from an earlier run already holds it.
    if ((error as { name?: unknown }).name !== "ResourceInUseException") throw error;
  }
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 30 }, { TableName: table });
}
