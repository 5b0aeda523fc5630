/**
 * `decisions up` ingests like the deployed stack: a JSONL object put under the printed ingest
 * prefix of the printed bucket (with a plain S3 client) becomes one outcome per line — decided or
 * rejected — while an object elsewhere in the bucket is left alone.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { UNPARSED_POLICY } from "../../../contract/outcome/outcomesTableKeys.js";
import { lineId } from "../../../functions/ingest/prepareLine.js";
import { LOCAL_CREDENTIALS } from "../../../local/createLocalClients.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

const ticket = (id: string, subject: string) =>
  JSON.stringify({
    id,
    policy: "ticket-routing",
    state: { subject, body: `${subject}. Please help.` },
    facts: { customer_tier: "pro" },
  });

describe("decisions up: uploads under the ingest prefix (integration)", () => {
  let up: UpProcess;
  let s3: S3Client;
  let dynamodb: DynamoDBClient;

  before(async () => {
    up = await startUpProcess();
    s3 = new S3Client({
      region: up.info.region,
      endpoint: up.info.s3_endpoint,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    });
    dynamodb = new DynamoDBClient({
      region: up.info.region,
      endpoint: up.info.dynamodb_endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
  });

  after(async () => {
    s3?.destroy();
    dynamodb?.destroy();
    if (up !== undefined && up.child.exitCode === null) {
      up.child.kill("SIGINT");
      await once(up.child, "exit");
    }
  });

  it("prints the ingest prefix and suffix of the deployed rule", () => {
    assert.equal(up.info.ingest_prefix, "incoming/");
    assert.equal(up.info.ingest_suffix, ".jsonl");
  });

  it("turns every line of an uploaded object into an outcome, and ignores keys outside the prefix", {
    timeout: 300_000,
  }, async () => {
    const bucket = String(up.info.bucket);
    const outside = `elsewhere/up-ingest.jsonl`;
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: outside,
        Body: `${ticket("up-ingest-outside", "Lost key")}\n`,
      }),
    );
    const key = `${up.info.ingest_prefix}up-ingest${up.info.ingest_suffix}`;
    const lines = [
      ticket("up-ingest-1", "Charged twice"),
      "{ not json",
      ticket("up-ingest-2", "Where is my parcel"),
      JSON.stringify({ id: "up-ingest-bad", policy: "ticket-routing", facts: { customer_tier: "pro" } }),
    ];
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: `${lines.join("\n")}\n` }));

    const expected: [string, string][] = [
      ["ticket-routing", "up-ingest-1"],
      [UNPARSED_POLICY, lineId({ bucket, key, line: 2 })],
      ["ticket-routing", "up-ingest-2"],
      ["ticket-routing", "up-ingest-bad"],
    ];
    const statuses = new Map<string, string>();
    const told = new RegExp(`ingest s3://${bucket}/${key}: 4 lines read, 2 queued, 2 rejected`);
    while (statuses.size < expected.length || !told.test(up.stderr())) {
      for (const [policy, id] of expected) {
        if (statuses.has(id)) continue;
        const found = await dynamodb.send(
          new GetItemCommand({ TableName: up.info.table, Key: { policy: { S: policy }, id: { S: id } } }),
        );
        const status = found.Item?.status?.S;
        if (status !== undefined) statuses.set(id, status);
      }
      if (statuses.size < expected.length || !told.test(up.stderr()))
        await new Promise((resolve) => setTimeout(resolve, 300));
    }
    assert.notEqual(statuses.get("up-ingest-1"), "rejected");
    assert.notEqual(statuses.get("up-ingest-2"), "rejected");
    assert.equal(statuses.get(expected[1]?.[1] ?? ""), "rejected");
    assert.equal(statuses.get("up-ingest-bad"), "rejected");
    // Workflows run in the order objects were created: the outside one would have run first.
    const outsideOutcome = await dynamodb.send(
      new GetItemCommand({
        TableName: up.info.table,
        Key: { policy: { S: "ticket-routing" }, id: { S: "up-ingest-outside" } },
      }),
    );
    assert.equal(outsideOutcome.Item, undefined);
    assert.doesNotMatch(up.stderr(), /elsewhere\/up-ingest/);
  });
});
