/** DynamoDB Local through the loopback launcher: bound to 127.0.0.1 only, real SDK client. */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
} from "@aws-sdk/client-dynamodb";
import { JavaNotFoundError, PortInUseError } from "../../../local/errors.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../../local/services/startDynamoDbLocal.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { listeningSockets } from "../listeningSockets.js";

function client(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: "eu-west-1",
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
}

async function createTable(ddb: DynamoDBClient, name: string): Promise<void> {
  await ddb.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
}

describe("startDynamoDbLocal (integration)", () => {
  let ddbLocal: DynamoDbLocal;
  let ddb: DynamoDBClient;

  before(async () => {
    ddbLocal = await startDynamoDbLocal();
    ddb = client(ddbLocal.endpoint);
  });

  after(async () => {
    ddb?.destroy();
    await ddbLocal?.stop();
  });

  it("listens on 127.0.0.1 only, on the port it reports", async () => {
    assert.ok(ddbLocal.pid !== undefined);
    const sockets = await listeningSockets(ddbLocal.pid);
    assert.deepEqual(sockets, [{ family: "tcp", address: "127.0.0.1", port: ddbLocal.port }]);
    assert.equal(ddbLocal.endpoint, `http://127.0.0.1:${ddbLocal.port}`);
  });

  it("serves the real DynamoDB API to the SDK, one database for every region", async () => {
    await createTable(ddb, "things");
    await ddb.send(new PutItemCommand({ TableName: "things", Item: { id: { S: "a" }, n: { N: "2.0" } } }));
    const otherRegion = new DynamoDBClient({
      endpoint: ddbLocal.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "other", secretAccessKey: "other" },
    });
    try {
      const got = await otherRegion.send(
        new GetItemCommand({ TableName: "things", Key: { id: { S: "a" } } }),
      );
      assert.deepEqual(got.Item, { id: { S: "a" }, n: { N: "2" } });
    } finally {
      otherRegion.destroy();
    }
  });

  it("names the port when it is taken", async () => {
    await assert.rejects(startDynamoDbLocal({ port: ddbLocal.port }), (error: unknown) => {
      assert.ok(error instanceof PortInUseError);
      assert.equal(error.port, ddbLocal.port);
      assert.match(error.message, /DynamoDB Local: port \d+ on 127\.0\.0\.1 is already in use/);
      return true;
    });
  });
});

describe("startDynamoDbLocal with a data folder (integration)", () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "ddb-local-"));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("keeps its tables across a stop and a restart, and refuses connections while down", async () => {
    const first = await startDynamoDbLocal({ dataDir: join(folder, "db") });
    const firstClient = client(first.endpoint);
    try {
      await createTable(firstClient, "kept");
    } finally {
      await first.stop();
    }
    // The JVM exits through its shutdown hooks on SIGTERM: 128 + 15.
    assert.equal(await first.exited, 143);
    await assert.rejects(firstClient.send(new ListTablesCommand({})), { code: "ECONNREFUSED" });
    firstClient.destroy();

    const second = await startDynamoDbLocal({ dataDir: join(folder, "db") });
    const secondClient = client(second.endpoint);
    try {
      const tables = await secondClient.send(new ListTablesCommand({}));
      assert.deepEqual(tables.TableNames, ["kept"]);
    } finally {
      secondClient.destroy();
      await second.kill();
    }
    assert.equal(second.pid !== undefined && processAlive(second.pid), false);
  });
});

describe("startDynamoDbLocal without Java", () => {
  it("fails with an error that names Java", async () => {
    await assert.rejects(startDynamoDbLocal({ java: "/nonexistent/bin/java" }), (error: unknown) => {
      assert.ok(error instanceof JavaNotFoundError);
      assert.equal(error.part, "DynamoDB Local");
      assert.match(error.message, /Java is needed/);
      return true;
    });
  });
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}
