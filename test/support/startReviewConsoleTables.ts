import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { StoredOutcome } from "../../core/outcomes/index.js";
import { outcomesTableDefinition } from "../../core/outcomes/index.js";
import { loadPolicies } from "../../core/policy/index.js";
import { ReviewApi, type ReviewApiOptions } from "../../functions/reviewConsole/index.js";
import { startDynamoDbLocal } from "../../local/services/startDynamoDbLocal.js";
import { type ReviewServer, startReviewServer } from "../../local/services/startReviewServer.js";
import { LOCAL_CREDENTIALS } from "../../local/stack/createLocalClients.js";
import { templateConsoleRoutes } from "./templateConsoleRoutes.js";

const POLICIES = new URL("../../policies", import.meta.url).pathname;

/** Query calls made through {@link ReviewConsoleTables.doc} and the index entries they read. */
export interface QueryReads {
  queries: number;
  scanned: number;
}

/** Options of {@link ReviewConsoleTables.serve}. */
export interface ServeOptions extends Partial<Omit<ReviewApiOptions, "client" | "tableName">> {
  /** The table's name. Default `outcomes-<n>`, a fresh one per call. */
  table?: string;
}

/** An outcomes table and the local console (`decisions up`'s server) that serves it. */
export interface ServedTable {
  table: string;
  server: ReviewServer;
  /** The console's base URL (`http://127.0.0.1:<port>/`). */
  url: string;
}

/** DynamoDB Local with outcomes tables, each served by its own local review console. */
export interface ReviewConsoleTables {
  /** A document client on DynamoDB Local (undefined values removed, as the functions write). */
  readonly doc: DynamoDBDocumentClient;
  /** Query calls through `doc` since the start, and the entries they read (counted as they answer). */
  readonly reads: QueryReads;
  /** Writes outcomes into a table, 25 to a BatchWriteItem. */
  put(table: string, outcomes: readonly StoredOutcome[]): Promise<void>;
  /** Creates a table holding `outcomes` and starts a console on it (the repository's policies by default). */
  serve(outcomes: readonly StoredOutcome[], options?: ServeOptions): Promise<ServedTable>;
  /** Stops every console started, the client and DynamoDB Local. */
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local for the review console's tests (the API's queue tests and the browser
 * tests), with the repository's policies loaded once.
 */
export async function startReviewConsoleTables(): Promise<ReviewConsoleTables> {
  const ddbLocal = await startDynamoDbLocal({ env: process.env });
  const reads: QueryReads = { queries: 0, scanned: 0 };
  const base = new DynamoDBClient({
    endpoint: ddbLocal.endpoint,
    region: "us-east-1",
    credentials: LOCAL_CREDENTIALS,
  });
  base.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === "QueryCommand") {
        reads.queries += 1;
        reads.scanned += (result.output as { ScannedCount?: number }).ScannedCount ?? 0;
      }
      return result;
    },
    { step: "initialize", name: "countQueries" },
  );
  const doc = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  const servers: ReviewServer[] = [];
  let tables = 0;
  try {
    const policies = await loadPolicies(POLICIES);
    const put = async (table: string, outcomes: readonly StoredOutcome[]): Promise<void> => {
      for (let at = 0; at < outcomes.length; at += 25)
        await doc.send(
          new BatchWriteCommand({
            RequestItems: { [table]: outcomes.slice(at, at + 25).map((Item) => ({ PutRequest: { Item } })) },
          }),
        );
    };
    return {
      doc,
      reads,
      put,
      async serve(outcomes, { table: name, ...options } = {}) {
        tables += 1;
        const table = name ?? `outcomes-${tables}`;
        await doc.send(new CreateTableCommand(outcomesTableDefinition(table)));
        await put(table, outcomes);
        const server = await startReviewServer({
          api: new ReviewApi({ client: doc, tableName: table, policies, ...options }),
          routes: await templateConsoleRoutes(),
        });
        servers.push(server);
        return { table, server, url: server.url };
      },
      async stop() {
        for (const server of servers) await server.stop();
        doc.destroy();
        await ddbLocal.stop();
      },
    };
  } catch (error) {
    doc.destroy();
    await ddbLocal.stop();
    throw error;
  }
}
