/**
 * `decisions up --shadow-model <file.gguf>` with two generated models of different seeds: the live
 * adapter serves the demo model (seed 42), a second adapter the candidate (seed 7), behind the
 * gateway's second endpoint. Ten tickets of a policy whose `shadow` section samples half of them:
 * every live outcome is written by the live model, and shadow records exist for exactly the
 * sampled ids (the same draw the decide function makes), each answered by the candidate model.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import type { ShadowRecord } from "../../../contract/outcome/ShadowRecordSchema.js";
import { ShadowRecordStore, type StoredOutcome } from "../../../core/outcomes/index.js";
import { shadowOf } from "../../../core/pipeline/index.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

const POLICY = "ticket-routing";
const CANDIDATE = "seed-7";
const CANDIDATE_SEED = 7;
const RATE = 0.5;
const POLL_MS = 100;
const tickets = readFileSync(join("events", "work-items", "tickets.jsonl"), "utf8")
  .trim()
  .split("\n")
  .slice(0, 10)
  .map((line) => JSON.parse(line) as { id: string });
const ids = tickets.map((ticket) => ticket.id);
const sampled = ids.filter((id) => shadowOf({ rate: RATE }, POLICY, id) !== undefined).sort();

describe("decisions up --shadow-model: a candidate beside the live model (integration)", {
  timeout: 900_000,
}, () => {
  let folder: string;
  let candidateSha: string;
  let up: UpProcess;
  let sqs: SQSClient;
  let dynamodb: DynamoDBClient;
  let documents: DynamoDBDocumentClient;
  const outcomes = new Map<string, StoredOutcome>();
  let records: ShadowRecord[];

  before(async () => {
    // prepare: the shipped policy with a shadow section; the candidate, a model of another seed
    folder = await mkdtemp(join(tmpdir(), "up-shadow-"));
    const shipped = await readFile(join("policies", `${POLICY}.yaml`), "utf8");
    await mkdir(join(folder, "policies"));
    await writeFile(
      join(folder, "policies", `${POLICY}.yaml`),
      `${shipped}\nshadow:\n  candidate: ${CANDIDATE}\n  rate: ${RATE}\n`,
    );
    const candidate = await ensureGeneratedModel("tiny-qwen3", {
      seed: CANDIDATE_SEED,
      cacheDir: join(folder, "models"),
    });
    candidateSha = (
      await writeModelManifest(candidate, {
        source: "generated:tiny-qwen3",
        revision: `seed ${CANDIDATE_SEED}`,
      })
    ).sha256;
    up = await startUpProcess([
      "--threads",
      "2",
      "--policies",
      join(folder, "policies"),
      "--shadow-model",
      candidate,
      // The default budget (5 s) is what a candidate on a machine of its own needs; a busy shared
      // one may take longer, and a timed-out candidate leaves no model to check.
      "--shadow-timeout",
      "120000",
      "--function-timeout",
      "300",
    ]);
    const common = { region: up.info.region, credentials: LOCAL_CREDENTIALS };
    sqs = new SQSClient({ ...common, endpoint: up.info.sqs_endpoint });
    dynamodb = new DynamoDBClient({ ...common, endpoint: up.info.dynamodb_endpoint });
    documents = DynamoDBDocumentClient.from(dynamodb);

    // act: ten tickets to the interactive lane; wait until each has its outcome and every record
    // has left the queues (the function drains its shadow step before its invocation ends)
    const queueUrls = up.info.queue_urls as unknown as Record<"interactive" | "bulk", string>;
    const sent = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrls.interactive,
        Entries: tickets.map((ticket, index) => ({ Id: String(index), MessageBody: JSON.stringify(ticket) })),
      }),
    );
    assert.equal(sent.Failed?.length ?? 0, 0, JSON.stringify(sent.Failed));
    for (const id of ids) outcomes.set(id, await decided(id));
    for (const url of Object.values(queueUrls)) await drained(url);
    records = await new ShadowRecordStore({ client: documents, tableName: String(up.info.table) }).latest(
      POLICY,
    );
  });

  after(async () => {
    sqs?.destroy();
    dynamodb?.destroy();
    if (up !== undefined && up.child.exitCode === null) {
      up.child.kill("SIGINT");
      await once(up.child, "exit");
    }
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  /** Waits, while the pipeline works, until `id` has an outcome. */
  async function decided(id: string): Promise<StoredOutcome> {
    for (;;) {
      const got = await documents.send(
        new GetCommand({ TableName: up.info.table, Key: { policy: POLICY, id }, ConsistentRead: true }),
      );
      if (got.Item !== undefined) return got.Item as StoredOutcome;
      assert.equal(up.child.exitCode, null, `decisions up exited:\n${up.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Waits until the queue holds no message, visible or in flight. */
  async function drained(queueUrl: string): Promise<void> {
    for (;;) {
      const { Attributes: attributes } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        }),
      );
      const depth =
        Number(attributes?.ApproximateNumberOfMessages ?? 0) +
        Number(attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
      if (depth === 0) return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  it("names the candidate's adapter, endpoint and model in its JSON line", () => {
    assert.equal(up.info.shadow_endpoint_name, `${up.info.endpoint_name}-candidate`);
    assert.equal(up.info.shadow_model_sha256, candidateSha);
    assert.notEqual(up.info.shadow_model_sha256, up.info.model_sha256, "two seeds, two models");
    assert.match(String(up.info.shadow_adapter_url), /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(up.info.shadow_adapter_url, up.info.adapter_url);
    assert.match(String(up.info.shadow_model), /\.gguf$/);
  });

  it("writes every live outcome, decided by the live model", () => {
    assert.deepEqual([...outcomes.keys()].sort(), [...ids].sort());
    for (const [id, outcome] of outcomes) {
      assert.equal(outcome.model_sha256, up.info.model_sha256, `${id} is decided by the live model`);
    }
  });

  it("stores shadow records for exactly the sampled ids, answered by the candidate model", () => {
    assert.ok(
      sampled.length > 0 && sampled.length < ids.length,
      `the draw samples some of the ids, not all: ${sampled.join(", ")}`,
    );
    assert.deepEqual(records.map((record) => record.item_id).sort(), sampled);
    for (const record of records) {
      assert.equal(record.candidate.name, CANDIDATE);
      assert.equal(record.failure, undefined, `${record.item_id}: ${JSON.stringify(record.failure)}`);
      assert.equal(record.candidate.endpoint, up.info.shadow_endpoint_name);
      assert.equal(record.candidate.model_sha256, candidateSha, `${record.item_id}'s candidate model`);
      assert.ok(record.result !== undefined, `${record.item_id} has the candidate's result`);
    }
  });
});
