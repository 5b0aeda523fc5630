/**
 * What decisions cost, on `decisions up` (DynamoDB Local, fauxqs, the real adapter on the
 * generated tiny model): the outcomes of an uploaded job carry their request's tokens, the job's
 * manifest and `decisions jobs show` sum each line's share of them, and `decisions cost --job` and
 * `--policy` print tokens and endpoint seconds per decision and the price per 1,000 decisions.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { createCostCommand } from "../../../cli/commands/costCommand.js";
import { createJobsCommand } from "../../../cli/commands/jobsCommand.js";
import {
  decisionUsageOf,
  JobManifestSchema,
  type JobUsage,
  LANES,
  type StoredOutcome,
} from "../../../contract/index.js";
import { OutcomesReader } from "../../../core/outcomes/index.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { parseS3Uri } from "../../../operations/jobs/readJobResults.js";
import { createOutcomesClient } from "../../../operations/outcomes/index.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

const POLICY = "ticket-routing";

const ticket = (id: string, subject: string) =>
  JSON.stringify({
    id,
    policy: POLICY,
    state: { subject, body: `${subject}. Please help.` },
    facts: { customer_tier: "pro" },
  });

/** Runs a `decisions` command object with its stdout kept. */
async function run(
  command: (stdout: { write(text: string): boolean }) => { run(args: string[]): Promise<number> },
  args: string[],
): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const write = (text: string): boolean => {
    stdout += text;
    return true;
  };
  const code = await command({ write }).run(args);
  return { code, stdout };
}

const jobs = (stdout: { write(text: string): boolean }) =>
  createJobsCommand({
    stdout,
    stderr: { write: () => true, isTTY: false },
    signals: { once: () => undefined, off: () => undefined },
  });
const cost = (stdout: { write(text: string): boolean }) =>
  createCostCommand({ stdout, stderr: { write: () => true } });

describe("decisions cost on decisions up (integration)", () => {
  let up: UpProcess;
  let s3: S3Client;

  before(async () => {
    up = await startUpProcess();
    s3 = new S3Client({
      region: up.info.region,
      endpoint: up.info.s3_endpoint,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    });
  });

  after(async () => {
    s3?.destroy();
    if (up !== undefined && up.child.exitCode === null) {
      up.child.kill("SIGINT");
      await once(up.child, "exit");
    }
  });

  it("records tokens on each outcome, sums them in the manifest and jobs show, and prices them per decision", {
    timeout: 600_000,
  }, async () => {
    // prepare: a job of six lines — four tickets (two with the same state), a line that is not JSON, a repeated id
    const startedAt = new Date().toISOString();
    const bucket = String(up.info.bucket);
    const key = `${up.info.ingest_prefix}cost-job${up.info.ingest_suffix}`;
    const ids = ["cost-1", "cost-2", "cost-3", "cost-4"];
    const lines = [
      ticket("cost-1", "Charged twice"),
      ticket("cost-2", "Charged twice"),
      "{ not json",
      ticket("cost-3", "Where is my parcel"),
      ticket("cost-4", "The app crashes on start"),
      // A repeated id: the line shares cost-3's outcome, and its cost counts once.
      ticket("cost-3", "Where is my parcel"),
    ];
    const dynamodb = [
      "--endpoint-url",
      String(up.info.dynamodb_endpoint),
      "--region",
      String(up.info.region),
    ];
    const jobsTable = ["--table", String(up.info.jobs_table), ...dynamodb];

    // act: upload, wait for the job's end
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: `${lines.join("\n")}\n` }));
    let jobId: string | undefined;
    while (jobId === undefined) {
      const listed = await run(jobs, ["list", "--json", ...jobsTable]);
      jobId = listed.stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { job_id: string; source: string })
        .find((job) => job.source === `s3://${bucket}/${key}`)?.job_id;
      if (jobId === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const waited = await run(jobs, ["wait", jobId, "--timeout", "540", "--interval", "0.1", ...jobsTable]);
    assert.equal(waited.code, 1, `complete_with_errors (the line that is not JSON): ${waited.stdout}`);

    // assert: every decided outcome carries its request's tokens, group size and lane
    const client = createOutcomesClient({ region: up.info.region, endpointUrl: up.info.dynamodb_endpoint });
    const outcomes: StoredOutcome[] = [];
    try {
      const reader = new OutcomesReader({ client, tableName: String(up.info.table) });
      for (const id of ids) {
        const outcome = await reader.get(POLICY, id);
        assert.ok(outcome, id);
        outcomes.push(outcome);
      }
    } finally {
      client.destroy();
    }
    for (const outcome of outcomes) {
      const request = outcome.request;
      assert.ok(request?.input_tokens !== undefined && request.input_tokens > 0, JSON.stringify(request));
      assert.ok(request.evaluated_tokens !== undefined && request.cached_tokens !== undefined);
      // Every prompt's tokens were either evaluated or reused; the state is counted once in input.
      assert.ok(request.evaluated_tokens + request.cached_tokens >= request.input_tokens);
      assert.ok(request.evaluated_tokens > 0);
      assert.ok(outcome.lane !== undefined && LANES.includes(outcome.lane), String(outcome.lane));
      assert.ok((outcome.timings?.endpoint_ms ?? 0) > 0);
    }
    // ticket-routing asks several questions on one state: the questions after the first reuse it.
    assert.ok(outcomes.some((outcome) => (outcome.request?.cached_tokens ?? 0) > 0));

    // assert: jobs show sums each line's share, as the manifest does
    const share = (key: "input_tokens" | "evaluated_tokens" | "cached_tokens") =>
      outcomes.reduce((sum, outcome) => {
        const usage = decisionUsageOf(outcome);
        return sum + (usage?.[key] ?? 0) / (usage?.group_size ?? 1);
      }, 0);
    const seconds = outcomes.reduce((sum, outcome) => {
      const usage = decisionUsageOf(outcome);
      return sum + (usage?.endpoint_ms ?? 0) / (usage?.group_size ?? 1) / 1000;
    }, 0);
    const shown = await run(jobs, ["show", jobId, "--json", ...jobsTable]);
    const job = JSON.parse(shown.stdout) as { usage: JobUsage; manifest_uri: string };
    assert.equal(job.usage.decisions, ids.length);
    assert.ok(Math.abs(job.usage.input_tokens - share("input_tokens")) < 0.01, JSON.stringify(job.usage));
    assert.ok(Math.abs(job.usage.evaluated_tokens - share("evaluated_tokens")) < 0.01);
    assert.ok(Math.abs(job.usage.cached_tokens - share("cached_tokens")) < 0.01);
    assert.ok(Math.abs(job.usage.endpoint_seconds - seconds) < 0.001);
    const human = await run(jobs, ["show", jobId, ...jobsTable]);
    assert.match(
      human.stdout,
      /usage {5}4 decision\(s\) by the model: [\d.]+ tokens \([\d.]+ evaluated, [\d.]+ cached\)/,
    );

    const { bucket: manifestBucket, key: manifestKey } = parseS3Uri(job.manifest_uri);
    const object = await s3.send(new GetObjectCommand({ Bucket: manifestBucket, Key: manifestKey }));
    const manifest = JobManifestSchema.parse(JSON.parse(await (object.Body?.transformToString() ?? "")));
    assert.deepEqual(manifest.usage, job.usage);

    // assert: decisions cost --job prints tokens per decision and the price per 1,000 decisions
    const priced = await run(cost, [
      "--job",
      jobId,
      "--instance-price",
      "1.5",
      "--json",
      "--jobs-table",
      String(up.info.jobs_table),
      ...dynamodb,
    ]);
    assert.equal(priced.code, 0);
    const report = JSON.parse(priced.stdout) as Record<string, unknown> & {
      decisions: number;
      tokens_per_decision: number;
      endpoint_seconds_per_decision: number;
      usd_per_1000: number;
      without_usage: number;
      by_policy: Record<string, { decisions: number }>;
      by_lane: Record<string, { decisions: number }>;
    };
    for (const field of [
      "decisions",
      "tokens_per_decision",
      "endpoint_seconds_per_decision",
      "usd_per_1000",
      "cache_share",
      "by_policy",
      "by_lane",
    ])
      assert.ok(field in report, field);
    assert.equal(report.decisions, ids.length);
    assert.equal(report.without_usage, 1, "the line that was not JSON was decided without the model");
    assert.ok(Math.abs(report.tokens_per_decision - job.usage.input_tokens / ids.length) < 0.01);
    assert.ok(
      Math.abs(report.endpoint_seconds_per_decision - job.usage.endpoint_seconds / ids.length) < 0.001,
    );
    // Seconds per decision are printed to 4 decimals, dollars computed before that rounding:
    // ±0.00005 s × 1,000 × $1.5/h ÷ 3,600 s/h is ±0.00002.
    assert.ok(
      Math.abs(report.usd_per_1000 - (report.endpoint_seconds_per_decision * 1000 * 1.5) / 3600) < 3e-5,
    );
    assert.equal(report.by_policy[POLICY]?.decisions, ids.length);
    assert.equal(
      Object.values(report.by_lane).reduce((sum, line) => sum + line.decisions, 0),
      ids.length,
    );

    const text = await run(cost, [
      "--job",
      jobId,
      "--instance-price",
      "1.5",
      "--jobs-table",
      String(up.info.jobs_table),
      ...dynamodb,
    ]);
    assert.match(
      text.stdout,
      new RegExp(`cost of 4 decision\\(s\\) of job ${jobId} at \\$1.5/h per instance`),
    );
    assert.match(text.stdout, /tokens\/decision/);
    assert.match(
      text.stdout,
      new RegExp(`policy ${POLICY}\\s+4\\s+${report.tokens_per_decision.toFixed(1)}`),
    );

    // assert: the policy's outcomes since the upload give the same decisions
    const byPolicy = await run(cost, [
      "--policy",
      POLICY,
      "--since",
      startedAt,
      "--instance-price",
      "1.5",
      "--json",
      "--table",
      String(up.info.table),
      ...dynamodb,
    ]);
    const policyReport = JSON.parse(byPolicy.stdout) as { decisions: number; tokens_per_decision: number };
    assert.equal(policyReport.decisions, ids.length);
    assert.equal(policyReport.tokens_per_decision, report.tokens_per_decision);
  });
});
