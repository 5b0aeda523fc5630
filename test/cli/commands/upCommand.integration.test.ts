/**
 * `decisions up` as a user runs it: a process that prints one JSON line once ready, serves the
 * pipeline until SIGINT, then stops everything and exits 0. Every server it starts listens on
 * 127.0.0.1 only (issue 11, "Security"): the listening TCP sockets of the `up` process and of every
 * process below it (DynamoDB Local's JVM, the adapter) are read from /proc while the stack runs (on
 * this file's one `up` process, rather than on one of its own). It ingests like the deployed stack:
 * a JSONL object put under the printed ingest prefix of the printed bucket (with a plain S3 client)
 * becomes one outcome per line — decided or rejected — while an object elsewhere in the bucket is
 * left alone; the upload is a job that `decisions jobs wait` follows to its end, with results one
 * line per input line in order, and uploading the same object again makes no second job.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { DynamoDBClient, GetItemCommand, QueryCommand } from "@aws-sdk/client-dynamodb";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { createJobsCommand } from "../../../cli/commands/jobsCommand.js";
import { type JobResultLine, JobResultLineSchema } from "../../../contract/index.js";
import { UNPARSED_POLICY } from "../../../contract/outcome/outcomesTableKeys.js";
import { lineId } from "../../../functions/ingest/prepareLine.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { listeningSockets } from "../../local/listeningSockets.js";
import { processTree } from "../../support/processTree.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

const REPO_ROOT = new URL("../../../", import.meta.url).pathname;
const run = promisify(execFile);

/** Runs `decisions <args>` from the sources as a user would run it in a second terminal. */
async function decisions(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ["--import", "tsx", "test/adapter/server/runCli.fixture.ts", ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
}

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

const LOOPBACK_V6_MAPPED = "0000000000000000FFFF00000100007F";

describe("decisions up (integration)", () => {
  let child: ChildProcess;
  let info: Record<string, string>;
  let up: UpProcess;

  before(async () => {
    up = await startUpProcess();
    ({ child, info } = up);
  });

  after(async () => {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  });

  it("prints every key a client needs, each endpoint on 127.0.0.1", () => {
    for (const key of [
      "sqs_endpoint",
      "queue_url",
      "dlq_url",
      "dynamodb_endpoint",
      "s3_endpoint",
      "gateway_url",
      "adapter_url",
    ]) {
      assert.match(info[key] ?? "", /^http:\/\/127\.0\.0\.1:\d+/, key);
    }
    for (const key of ["region", "table", "bucket", "endpoint_name"]) assert.ok(info[key], key);
    assert.match(up.stderr(), /weights are random/);
  });

  it("listens on 127.0.0.1 in every process it started, on each endpoint it printed", async () => {
    const pids = processTree(child.pid ?? 0);
    const sockets = (await Promise.all(pids.map((pid) => listeningSockets(pid).catch(() => [])))).flat();

    assert.ok(pids.length >= 3, `expected up, DynamoDB Local and the adapter: ${pids.join(", ")}`);
    const wide = sockets.filter(
      (socket) => socket.address !== "127.0.0.1" && socket.address !== LOOPBACK_V6_MAPPED,
    );
    assert.deepEqual(wide, [], `sockets not on loopback: ${JSON.stringify(wide)}`);
    const ports = new Set(sockets.map((socket) => socket.port));
    for (const key of ["sqs_endpoint", "dynamodb_endpoint", "s3_endpoint", "gateway_url", "adapter_url"]) {
      const port = Number(new URL(info[key] ?? "http://x:0").port);
      assert.ok(
        ports.has(port),
        `${key} (${info[key]}) is not among the listening ports ${[...ports].join(", ")}`,
      );
    }
  });

  it("decides an item a plain SDK client sends, readable from the review index", {
    timeout: 120_000,
  }, async () => {
    const sqs = new SQSClient({ region: info.region, credentials: LOCAL_CREDENTIALS });
    const dynamodb = new DynamoDBClient({
      region: info.region,
      endpoint: info.dynamodb_endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      const item = {
        id: "up-1",
        policy: "ticket-routing",
        state: { subject: "Charged twice", body: "My card was charged twice for the March invoice." },
        facts: { customer_tier: "pro" },
      };
      // The queue URL alone routes the request: no endpoint configured on the client.
      await sqs.send(new SendMessageCommand({ QueueUrl: info.queue_url, MessageBody: JSON.stringify(item) }));
      let statuses: string[] = [];
      while (statuses.length === 0) {
        for (const status of ["decided", "fallback", "overridden", "rejected"]) {
          const page = await dynamodb.send(
            new QueryCommand({
              TableName: info.table,
              IndexName: "by-status",
              KeyConditionExpression: "policy_status = :key",
              ExpressionAttributeValues: { ":key": { S: `ticket-routing#${status}` } },
            }),
          );
          if ((page.Items ?? []).some((found) => found.id?.S === "up-1")) statuses = [status];
        }
        if (statuses.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.notEqual(statuses[0], "rejected");
    } finally {
      sqs.destroy();
      dynamodb.destroy();
    }
  });

  /** Resolves once the outcomes table holds an outcome of ticket-routing for each of `ids`. */
  async function untilStored(ids: readonly string[]): Promise<void> {
    const dynamodb = new DynamoDBClient({
      region: info.region,
      endpoint: info.dynamodb_endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      const waiting = new Set(ids);
      while (waiting.size > 0) {
        for (const id of [...waiting]) {
          const found = await dynamodb.send(
            new GetItemCommand({
              TableName: info.table,
              Key: { policy: { S: "ticket-routing" }, id: { S: id } },
            }),
          );
          if (found.Item !== undefined) waiting.delete(id);
        }
        if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      dynamodb.destroy();
    }
  }

  it("decides what `decisions submit` sends, listed by `decisions outcomes list`", {
    timeout: 180_000,
  }, async () => {
    const folder = await mkdtemp(join(tmpdir(), "up-submit-"));
    try {
      const ids = ["up-submit-1", "up-submit-2", "up-submit-3"];
      const lines = ids.map((id, index) =>
        JSON.stringify({
          id,
          policy: "ticket-routing",
          state: { subject: `Order ${index}`, body: "Where is my parcel? It is a week late." },
          facts: { customer_tier: "business" },
        }),
      );
      const items = join(folder, "items.jsonl");
      await writeFile(items, `${lines.join("\n")}\n`);

      const sent = await decisions(
        "submit",
        items,
        "--queue-url",
        String(info.queue_url),
        "--endpoint-url",
        String(info.sqs_endpoint),
      );
      assert.match(sent.stdout, /^sent 3 of 3 message\(s\) to /);

      // Waits on the table itself (a cheap SDK read), then lists once: a `decisions` process per
      // poll cost more than the pipeline it waited for.
      await untilStored(ids);
      const table = ["--table", String(info.table), "--endpoint-url", String(info.dynamodb_endpoint)];
      const { stdout } = await decisions(
        "outcomes",
        "list",
        "--policy",
        "ticket-routing",
        "--json",
        ...table,
      );
      const listed = stdout
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as { id: string; status: string });
      for (const id of ids) {
        const outcome = listed.find((found) => found.id === id);
        assert.ok(outcome && ["decided", "fallback", "overridden"].includes(outcome.status), id);
      }
      const shown = await decisions("outcomes", "show", ids[0] ?? "", "--policy", "ticket-routing", ...table);
      assert.match(shown.stdout, /up-submit-1/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  describe("uploads under the ingest prefix", () => {
    let s3: S3Client;
    let dynamodb: DynamoDBClient;

    before(() => {
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

    after(() => {
      s3?.destroy();
      dynamodb?.destroy();
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

  it("stops everything and exits 0 on SIGINT", { timeout: 60_000 }, async () => {
    child.kill("SIGINT");
    const [code] = await once(child, "exit");
    assert.equal(code, 0, up.stderr());
    assert.match(up.stderr(), /SIGINT: stopping/);
    await assert.rejects(
      fetch(String(info.dynamodb_endpoint)),
      (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED",
    );
    await assert.rejects(
      fetch(`${info.adapter_url}/ping`),
      (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED",
    );
  });
});
