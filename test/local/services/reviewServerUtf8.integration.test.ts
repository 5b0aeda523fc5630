/**
 * The local review console refuses a request body that is not UTF-8 (400 naming it) instead of
 * replacing its bytes with U+FFFD, against DynamoDB Local: the item stays as it was, and a body of
 * valid UTF-8 is reviewed.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { outcomesTableDefinition } from "../../../core/outcomes/index.js";
import { loadPolicies } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../functions/reviewConsole/index.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../../local/services/startDynamoDbLocal.js";
import { type ReviewServer, startReviewServer } from "../../../local/services/startReviewServer.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { templateConsoleRoutes } from "../../support/templateConsoleRoutes.js";
import { waitingOutcome } from "../../support/waitingOutcome.js";

const POLICIES = new URL("../../../policies", import.meta.url).pathname;
const POLICY = "ticket-routing";
const TABLE = "outcomes";
const AT = "2026-12-01T10:00:00.000Z";

/** POSTs these exact bytes as JSON to the server. */
function post(server: ReviewServer, path: string, body: Buffer): Promise<{ status: number; body: string }> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-reviewer": "ana", "content-length": body.length },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () =>
          resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

describe("the local review console on bytes that are not UTF-8 (DynamoDB Local)", () => {
  let ddbLocal: DynamoDbLocal;
  let doc: DynamoDBDocumentClient;
  let server: ReviewServer;

  before(async () => {
    ddbLocal = await startDynamoDbLocal({ env: process.env });
    doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: ddbLocal.endpoint,
        region: "us-east-1",
        credentials: LOCAL_CREDENTIALS,
      }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    await doc.send(new CreateTableCommand(outcomesTableDefinition(TABLE)));
    await doc.send(new PutCommand({ TableName: TABLE, Item: waitingOutcome(POLICY, "T-1", AT) }));
    server = await startReviewServer({
      api: new ReviewApi({ client: doc, tableName: TABLE, policies: await loadPolicies(POLICIES) }),
      routes: await templateConsoleRoutes(),
    });
  });

  after(async () => {
    await server?.stop();
    doc?.destroy();
    await ddbLocal?.stop();
  });

  it("answers 400 naming the problem for a body that is not UTF-8, and stores nothing; valid UTF-8 is reviewed", async () => {
    const path = `api/items/${POLICY}/T-1/review`;
    const before = Buffer.from(`{"answers": {"queue": "billing"}, "expect_updated_at": "${AT}", "x": "`);
    const after = Buffer.from('"}');

    const invalid = await post(server, path, Buffer.concat([before, Buffer.from([0xff, 0xfe]), after]));
    const stored = (await doc.send(new GetCommand({ TableName: TABLE, Key: { policy: POLICY, id: "T-1" } })))
      .Item;
    const valid = await post(
      server,
      path,
      Buffer.from(`{"answers": {"queue": "billing"}, "expect_updated_at": "${AT}"}`, "utf8"),
    );

    assert.equal(invalid.status, 400, invalid.body);
    assert.match(JSON.parse(invalid.body).error, /not valid UTF-8/);
    assert.equal(stored?.status, "fallback");
    assert.equal(stored?.updated_at, AT);
    assert.equal(valid.status, 200, valid.body);
  });
});
