/**
 * `decisions up` ingests like the deployed stack: a JSONL object put under the printed ingest
 * prefix of the printed bucket (with a plain S3 client) becomes one outcome per line — decided or
 * rejected — while an object elsewhere in the bucket is left alone; the upload is a job that
 * `decisions jobs wait` follows to its end, with results one line per input line in order, and
 * uploading the same object again makes no second job.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { createJobsCommand } from "../../../cli/commands/jobsCommand.js";
import { type JobResultLine, JobResultLineSchema } from "../../../contract/index.js";
import { UNPARSED_POLICY } from "../../../contract/outcome/outcomesTableKeys.js";
import { lineId } from "../../../functions/ingest/prepareLine.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

const ticket = (id: string, subject: string) =>
  JSON.stringify({
    id,
    policy: "ticket-routing",
    state: { subject, body: `${subject}. Please help.` },
    facts: { customer_tier: "pro" },
  });

/** The first work item of one of the shipped example files, under another id. */
function firstItemOf(file: string, id: string): string {
  const text = readFileSync(join(packageRoot(), "events", "work-items", file), "utf8");
  return JSON.stringify({ ...JSON.parse(text.split("\n")[0] ?? ""), id });
}

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
    const put = await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: `${lines.join("\n")}\n` }),
    );

    const expected: [string, string][] = [
      ["ticket-routing", "up-ingest-1"],
      // The local bucket has no versioning: the object's ETag stands for its version.
      [UNPARSED_POLICY, lineId({ bucket, key, ...(put.ETag ? { etag: put.ETag } : {}), line: 2 })],
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
        await new Promise((resolve) => setTimeout(resolve, 100));
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

  it("makes the upload a job that jobs wait follows to complete_with_errors, and an upload of the same object no second job", {
    timeout: 600_000,
  }, async () => {
    // prepare: all three policies, valid lines and invalid ones
    const bucket = String(up.info.bucket);
    const key = `${up.info.ingest_prefix}up-job${up.info.ingest_suffix}`;
    const lines = [
      ticket("up-job-1", "Charged twice"),
      firstItemOf("incidents.jsonl", "up-job-incident"),
      firstItemOf("documents.jsonl", "up-job-document"),
      "{ not json",
      JSON.stringify({ id: "up-job-unknown", policy: "no-such-policy", state: { text: "x" } }),
      ticket("up-job-2", "Where is my parcel"),
    ];
    const body = `${lines.join("\n")}\n`;
    const table = [
      "--table",
      String(up.info.jobs_table),
      "--endpoint-url",
      String(up.info.dynamodb_endpoint),
    ];
    const region = ["--region", String(up.info.region)];
    const cli = () => {
      let stdout = "";
      const command = createJobsCommand({
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: () => true, isTTY: false },
        signals: { once: () => undefined, off: () => undefined },
      });
      return { command, stdout: () => stdout };
    };
    const jobsOf = async () => {
      const list = cli();
      assert.equal(await list.command.run(["list", "--json", ...table, ...region]), 0);
      return list
        .stdout()
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { job_id: string; source: string; status: string })
        .filter((job) => job.source === `s3://${bucket}/${key}`);
    };

    // act: upload, then wait for the job as a user would
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    let jobs = await jobsOf();
    while (jobs.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      jobs = await jobsOf();
    }
    const jobId = jobs[0]?.job_id ?? "";
    const waited = await cli().command.run(["wait", jobId, "--timeout", "540", ...table, ...region]);

    // assert: ended with errors (invalid lines), results one per input line in order
    assert.equal(waited, 1, "jobs wait exits 1 for complete_with_errors");
    const shown = cli();
    assert.equal(await shown.command.run(["show", jobId, "--json", ...table, ...region]), 0);
    const job = JSON.parse(shown.stdout()) as {
      status: string;
      counts: {
        lines: number;
        sent: number;
        rejected_at_ingest: number;
        ended: number;
        dead_lettered: number;
        outcomes: Record<string, number>;
      };
      results_uri: string;
      manifest_uri: string;
    };
    assert.equal(job.status, "complete_with_errors");
    assert.equal(job.counts.lines, lines.length);
    assert.equal(job.counts.sent + job.counts.rejected_at_ingest, job.counts.lines);
    const ended = Object.values(job.counts.outcomes).reduce((sum, count) => sum + count, 0);
    assert.equal(ended + job.counts.dead_lettered, job.counts.lines);
    const results = cli();
    assert.equal(
      await results.command.run([
        "results",
        jobId,
        "--s3-endpoint-url",
        String(up.info.s3_endpoint),
        ...table,
        ...region,
      ]),
      0,
    );
    const resultLines: JobResultLine[] = results
      .stdout()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JobResultLineSchema.parse(JSON.parse(line)));
    assert.deepEqual(
      resultLines.map((line) => line.line),
      lines.map((_, index) => index + 1),
    );
    assert.equal(resultLines[0]?.id, "up-job-1");
    assert.equal(resultLines[1]?.id, "up-job-incident");
    assert.equal(resultLines[2]?.id, "up-job-document");
    assert.equal(resultLines[3]?.status, "rejected");
    assert.equal(resultLines[4]?.status, "rejected");
    assert.equal(resultLines[5]?.id, "up-job-2");
    assert.notEqual(resultLines[0]?.status, "rejected");
    assert.match(up.stderr(), new RegExp(`job ${jobId} complete_with_errors`));

    // act again: the same object uploaded a second time (same content, so the same ETag)
    const before = up.stderr().length;
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    while (!/ingest s3:\/\/[^ ]*up-job\.jsonl/.test(up.stderr().slice(before)))
      await new Promise((resolve) => setTimeout(resolve, 100));

    // assert: still one job, and it is the same, ended one
    const after = await jobsOf();
    assert.deepEqual(
      after.map((found) => found.job_id),
      [jobId],
    );
  });
});
