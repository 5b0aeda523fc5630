/**
 * `decisions up` runs two lanes: a batch job uploaded under the ingest prefix drains in the bulk
 * lane while interactive items sent to the interactive lane's queue meanwhile are decided before
 * the job's last line; the job still ends complete, each line counted once, nothing dead-lettered.
 * Order is asserted, not time.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { GetQueueAttributesCommand, SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { isFinalJobStatus, type Job } from "../../../contract/index.js";
import { JobsReader } from "../../../core/jobs/index.js";
import { buildJobObject } from "../../../lab/bench/jobs/index.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

/**
 * Lines of the job: enough to keep draining while the interactive items are decided (sent once
 * its first line has ended, they wait for at most the evaluations running then and their own: a
 * few, against the job's 100), cheap on CI.
 */
const LINES = 100;
/** How long the job's ended lines may stand still before the test gives up (a stalled job, not a slow machine). */
const STILL_MS = 300_000;
/** Between two reads of the job: short, so the incidents are sent soon after its first line ended. */
const POLL_MS = 100;

describe("decisions up: the interactive lane overtakes a draining batch job (integration)", () => {
  let up: UpProcess;
  let s3: S3Client;
  let sqs: SQSClient;
  let dynamodb: DynamoDBClient;
  let documents: DynamoDBDocumentClient;
  let queueUrls: Record<"interactive" | "bulk", string>;
  let dlqUrls: Record<"interactive" | "bulk", string>;

  before(async () => {
    up = await startUpProcess();
    const common = { region: up.info.region, credentials: LOCAL_CREDENTIALS };
    s3 = new S3Client({ ...common, endpoint: up.info.s3_endpoint, forcePathStyle: true });
    sqs = new SQSClient({ ...common, endpoint: up.info.sqs_endpoint });
    dynamodb = new DynamoDBClient({ ...common, endpoint: up.info.dynamodb_endpoint });
    documents = DynamoDBDocumentClient.from(dynamodb);
    queueUrls = up.info.queue_urls as unknown as typeof queueUrls;
    dlqUrls = up.info.dlq_urls as unknown as typeof dlqUrls;
  });

  after(async () => {
    s3?.destroy();
    sqs?.destroy();
    dynamodb?.destroy();
    if (up !== undefined && up.child.exitCode === null) {
      up.child.kill("SIGINT");
      await once(up.child, "exit");
    }
  });

  it("prints each lane's queue and DLQ, queue_url and dlq_url being the interactive lane's", () => {
    assert.deepEqual(Object.keys(queueUrls).sort(), ["bulk", "interactive"]);
    assert.deepEqual(Object.keys(dlqUrls).sort(), ["bulk", "interactive"]);
    assert.equal(queueUrls.interactive, up.info.queue_url);
    assert.equal(dlqUrls.interactive, up.info.dlq_url);
    assert.notEqual(queueUrls.bulk, queueUrls.interactive);
    for (const url of [...Object.values(queueUrls), ...Object.values(dlqUrls)])
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it("decides interactive items sent while the job drains before its last line, and the job ends complete, each line once", {
    timeout: 1_800_000,
  }, async () => {
    // prepare: a job of distinct ticket lines, all valid; three incidents under ids of their own
    const object = buildJobObject({ lines: LINES, distinctStates: 40, run: 1, invalidEvery: 0 });
    const key = `${up.info.ingest_prefix}lanes${up.info.ingest_suffix}`;
    const source = `s3://${up.info.bucket}/${key}`;
    const incidents = readFileSync(join(packageRoot(), "events", "work-items", "incidents.jsonl"), "utf8")
      .split("\n")
      .slice(0, 3)
      .map((line, index) => ({ ...JSON.parse(line), id: `lanes-incident-${index + 1}` }) as { id: string });
    const reader = new JobsReader({ client: documents, tableName: String(up.info.jobs_table) });

    // act: upload the job; once its first lines have ended, send the incidents to the interactive lane
    await s3.send(new PutObjectCommand({ Bucket: up.info.bucket, Key: key, Body: object.body }));
    const job = await followJob(reader, source, (found) => found.counts.ended > 0);
    assert.ok(
      job.counts.ended < LINES,
      `the job had ${job.counts.ended} lines ended when the incidents were sent`,
    );
    const sent = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrls.interactive,
        Entries: incidents.map((incident, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(incident),
        })),
      }),
    );
    assert.equal(sent.Failed?.length ?? 0, 0, JSON.stringify(sent.Failed));
    const ended = await followJob(reader, source, (found) => isFinalJobStatus(found.status));

    // assert: each incident's outcome is older than the job's last line's; the job counted each line once
    const lineTimes = await jobOutcomeTimes(documents, String(up.info.table), ended.job_id);
    assert.equal(lineTimes.length, LINES);
    const lastLine = Math.max(...lineTimes);
    for (const incident of incidents) {
      const outcome = await documents.send(
        new GetCommand({ TableName: up.info.table, Key: { policy: "incident-priority", id: incident.id } }),
      );
      const created = outcome.Item?.created_at;
      assert.equal(typeof created, "string", `incident ${incident.id} has an outcome`);
      assert.ok(
        Date.parse(String(created)) < lastLine,
        `incident ${incident.id} decided at ${created}, the job's last line at ${new Date(lastLine).toISOString()}`,
      );
    }
    assert.equal(ended.status, "complete");
    assert.equal(ended.counts.lines, LINES);
    assert.equal(ended.counts.sent, LINES);
    assert.equal(ended.counts.ended, LINES);
    assert.equal(ended.counts.duplicates, 0);
    assert.equal(ended.counts.dead_lettered, 0);
    for (const url of Object.values(dlqUrls)) assert.equal(await depth(sqs, url), 0, url);
  });
});

/** Follows the job of `source` until `done` holds; fails when its ended lines stop moving. */
async function followJob(reader: JobsReader, source: string, done: (job: Job) => boolean): Promise<Job> {
  let jobId: string | undefined;
  let last = -1;
  let movedAt = Date.now();
  for (;;) {
    jobId ??= (await reader.newest(10)).find((found) => found.source === source)?.job_id;
    const job = jobId === undefined ? undefined : await reader.find(jobId);
    if (job !== undefined && done(job)) return job;
    const ended = job?.counts.ended ?? 0;
    if (ended !== last) [last, movedAt] = [ended, Date.now()];
    assert.ok(
      Date.now() - movedAt < STILL_MS,
      `the job stopped at ${ended} lines ended (${job?.status ?? "no job yet"})`,
    );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** `created_at` (epoch ms) of every outcome of the job's lines. */
async function jobOutcomeTimes(
  documents: DynamoDBDocumentClient,
  table: string,
  jobId: string,
): Promise<number[]> {
  const times: number[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({
        TableName: table,
        // An outcome of a job's line names its job in `source.job_id`.
        FilterExpression: "#source.job_id = :job",
        ExpressionAttributeNames: { "#source": "source" },
        ExpressionAttributeValues: { ":job": jobId },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) times.push(Date.parse(String(item.created_at)));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return times;
}

async function depth(sqs: SQSClient, queueUrl: string): Promise<number> {
  const answer = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  return (
    Number(answer.Attributes?.ApproximateNumberOfMessages ?? 0) +
    Number(answer.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
  );
}
