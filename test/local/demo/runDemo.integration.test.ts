/**
 * `npm start` end to end: the sample events through the whole local pipeline, then the summary —
 * with IAM enforced as `decisions rehearse` runs it (every call of the running functions authorized
 * against their roles in the template, and the rehearsal's own workload before the stack stops).
 */
import assert from "node:assert/strict";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, before, describe, it } from "node:test";
import {
  type CalledRoute,
  driveLiveWorkload,
  liveWorkloadNames,
} from "../../../lab/rehearsal/liveWorkload.js";
import { templateAuthorizer } from "../../../lab/rehearsal/templateAuthorizer.js";
import { type DemoResult, runDemo } from "../../../local/demo/runDemo.js";
import type { IamCallsSnapshot } from "../../../local/iam/LocalIam.js";
import { deployTargetOf, TemplateResolver } from "../../../local/iam/TemplateResolver.js";
import { loadStackTemplate } from "../../../local/stack/loadStackTemplate.js";

const EVENTS = new URL("../../../events/", import.meta.url).pathname;
/** Sample lines kept per work-item file sent to the queue: enough for the 3 incident probes. */
const KEPT_LINES = 6;

/**
 * An `events/` folder like the shipped one with fewer work items sent straight to the queue: the
 * first {@link KEPT_LINES} lines of each, plus every line that is not a valid item (those become
 * rejected outcomes). The ingest file and the EventBridge events are kept whole.
 */
async function smallerEvents(folder: string): Promise<void> {
  await cp(join(EVENTS, "eventbridge"), join(folder, "eventbridge"), { recursive: true });
  await mkdir(join(folder, "work-items"));
  await cp(join(EVENTS, "work-items", "documents.jsonl"), join(folder, "work-items", "documents.jsonl"));
  for (const file of ["incidents.jsonl", "tickets.jsonl"]) {
    const lines = (await readFile(join(EVENTS, "work-items", file), "utf8")).split("\n");
    const kept = lines.filter(
      (line, index) => line.trim() !== "" && (index < KEPT_LINES || !validItem(line)),
    );
    await writeFile(join(folder, "work-items", file), `${kept.join("\n")}\n`);
  }
}

function validItem(line: string): boolean {
  try {
    const item = JSON.parse(line) as Record<string, unknown>;
    return typeof item.id === "string" && typeof item.policy === "string" && item.state !== undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return false;
    throw error;
  }
}

describe("runDemo (integration)", () => {
  let eventsDir: string;

  before(async () => {
    eventsDir = await mkdtemp(join(tmpdir(), "demo-events-"));
    await smallerEvents(eventsDir);
  });

  after(async () => {
    if (eventsDir !== undefined) await rm(eventsDir, { recursive: true, force: true });
  });

  it("ends every sample item decided, rejected or dead-lettered, prints the summary, stops everything", {
    timeout: 900_000,
  }, async () => {
    let stdout = "";
    let stderr = "";
    const errors = new PassThrough();
    errors.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const template = await loadStackTemplate();
    const target = deployTargetOf("Decisions");
    let calls: IamCallsSnapshot | undefined;
    let routes: readonly CalledRoute[] = [];
    let problems: readonly string[] = [];
    const result: DemoResult = await runDemo({
      env: process.env,
      // Fewer sample items straight to the queue (the 100-line batch job is what the lanes need).
      eventsDir,
      stack: {
        adapterThreads: 2,
        iam: {
          template,
          target,
          authorizer: templateAuthorizer(template, target),
          names: liveWorkloadNames(new TemplateResolver(template, target)),
        },
      },
      // The rehearsal's workload on the running stack: the console, a redecide, the monitors, the front door.
      beforeStop: async (stack) => {
        ({ routes, problems } = await driveLiveWorkload({ stack }));
        calls = stack.iam?.ledger.snapshot();
      },
      // Small enough for CI, large enough that the job still drains while the incidents are decided.
      batchLines: 100,
      incidents: 3,
      timeoutMs: 840_000,
      output: {
        stdout: {
          write: (text: string) => {
            stdout += text;
          },
        },
        stderr: errors,
      },
    });

    assert.equal(result.exitCode, 0, stderr);
    // One outcome per item (duplicates of an id collapse into the first), or a dead letter.
    assert.ok(result.outcomes.length + result.deadLetters.length > 0);
    assert.equal(result.outcomes.length + result.deadLetters.length <= result.sent, true);
    const policies = new Set(result.outcomes.map((outcome) => outcome.policy));
    for (const policy of ["ticket-routing", "incident-priority", "batch-classification"])
      assert.ok(policies.has(policy), policy);
    assert.ok(
      result.outcomes.some((outcome) => outcome.source.kind === "s3"),
      "the batch file went through S3 ingest",
    );
    assert.ok(
      result.outcomes.some((outcome) => outcome.source.kind === "eventbridge"),
      "an EventBridge event was mapped",
    );
    assert.match(stdout, /^Summary: \d+ items sent, \d+ outcomes, \d+ dead-lettered/m);
    assert.match(stdout, /^ticket-routing — \d+ items:/m);
    assert.match(stdout, /^Sent to human review \(status fallback\): \d+/m);
    // The incidents sent while the batch job drained were decided before it completed, and the job
    // counted each of its lines once.
    const lanes = result.lanes;
    assert.ok(lanes !== undefined, "the batch file made a job");
    assert.equal(lanes.batchLines, 100);
    assert.equal(lanes.alone.length, 3);
    assert.equal(lanes.during.length, 3);
    const completedAt = Date.parse(lanes.job?.completed_at ?? "");
    for (const timing of [...lanes.alone, ...lanes.during])
      assert.ok(timing.decidedAt !== undefined, timing.id);
    for (const timing of lanes.during) assert.ok((timing.decidedAt ?? Infinity) < completedAt, timing.id);
    assert.equal(lanes.job?.counts.lines, 100);
    assert.equal(lanes.job?.counts.ended, 100);
    assert.equal(lanes.job?.counts.duplicates, 0);
    assert.equal(lanes.job?.counts.dead_lettered, 0);
    assert.match(stdout, /^Lanes: incidents \(interactive lane\) alone/m);
    assert.match(stdout, /3 of 3 decided before the job completed/);
    assert.match(stdout, /every line counted once/);
    // Every call of every function that ran was authorized against its role; none was refused.
    assert.deepEqual(calls?.denied, []);
    assert.deepEqual(problems, []);
    for (const name of [
      "decide (interactive)",
      "decide (bulk)",
      "ingest",
      "results",
      "reviewConsole",
      "driftMonitor",
      "jobsMonitor",
      "frontDoor",
      "capacityController",
    ] as const) {
      const actions = calls?.allowed[name] ?? {};
      assert.ok(Object.values(actions).reduce((sum, count) => sum + count, 0) > 0, `${name} made no call`);
    }
    assert.ok((calls?.allowed["decide (bulk)"]?.["sagemaker:InvokeEndpoint"] ?? 0) > 0);
    assert.ok((calls?.allowed.reviewConsole?.["dynamodb:PutItem"] ?? 0) >= 2, "a review and an amendment");
    // The controller's tick read the (modelled) endpoint and both lanes' mappings as its role allows.
    assert.equal(calls?.allowed.capacityController?.["sagemaker:DescribeEndpoint"], 1);
    assert.equal(calls?.allowed.capacityController?.["lambda:GetEventSourceMapping"], 2);
    assert.equal(
      new Set(routes.map((route) => `${route.method} ${route.route}`)).size,
      9,
      JSON.stringify(routes),
    );
    assert.match(stderr, /weights are random/);
    assert.match(stderr, /local stack stopped/);
  });
});
