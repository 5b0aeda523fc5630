/**
 * DynamoDB Local on 127.0.0.1 with the given tables created (their deployed definitions, such as
 * `outcomesTableDefinition` and `jobsTableDefinition`) and real SDK clients on it: the set-up of
 * the table integration tests, one per test file.
 */
import { CreateTableCommand, type CreateTableCommandInput, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type DynamoDbLocal, LOCAL_CREDENTIALS, startDynamoDbLocal } from "../../local/index.js";

/** Options of {@link startLocalTables}. */
export interface LocalTablesOptions {
  /** The tables to create, in order. */
  tables: readonly CreateTableCommandInput[];
  /** The clients' `maxAttempts`. Default: the SDK's (3). */
  maxAttempts?: number;
}

/** DynamoDB Local with its tables, and clients on it; `stop` destroys the clients and stops it. */
export interface LocalTables {
  dynamo: DynamoDbLocal;
  /** The first client (the tables were created with it). */
  client: DynamoDBClient;
  /** A document client on {@link LocalTables.client} that removes undefined values. */
  documents: DynamoDBDocumentClient;
  /** Another client on the same DynamoDB Local (a second writer), destroyed by `stop`. */
  newClient(): DynamoDBClient;
  /** A document client on `client` that removes undefined values, as the functions make theirs. */
  documentsOf(client: DynamoDBClient): DynamoDBDocumentClient;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local and creates `options.tables` on it. */
export async function startLocalTables(options: LocalTablesOptions): Promise<LocalTables> {
  const dynamo = await startDynamoDbLocal({ env: process.env });
  const clients: DynamoDBClient[] = [];
  const newClient = (): DynamoDBClient => {
    const client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    });
    clients.push(client);
    return client;
  };
  const documentsOf = (client: DynamoDBClient): DynamoDBDocumentClient =>
    DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const stop = async (): Promise<void> => {
    for (const client of clients) client.destroy();
    await dynamo.stop();
  };
  try {
    const client = newClient();
    for (const table of options.tables) await client.send(new CreateTableCommand(table));
    return { dynamo, client, documents: documentsOf(client), newClient, documentsOf, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
