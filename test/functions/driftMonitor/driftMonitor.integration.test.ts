/**
 * Drift on DynamoDB Local: generated outcomes written through the outcomes table's writer
 * (OutcomeStore), one policy whose mix of states changes at a planted time T and one whose traffic
 * stays as it was. The drift monitor's Lambda handler runs every hour of the day on a moved clock;
 * the distance it publishes (EMF through Powertools) crosses the alarm threshold after T and never
 * before, and never on the unchanged traffic. `decisions drift --json` reads the same table.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDriftCommand } from "../../../cli/commands/driftCommand.js";
import { DEFAULT_DRIFT_THRESHOLD, DRIFT_METRICS } from "../../../contract/index.js";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { type Outcome, OutcomeStore, outcomesTableDefinition } from "../../../core/outcomes/index.js";
import { createDriftMonitorDeps, createDriftMonitorHandler } from "../../../functions/driftMonitor/index.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import { type DynamoDbLocal, LOCAL_CREDENTIALS, startDynamoDbLocal } from "../../../local/index.js";
import { generateTraffic, MIX_AFTER, MIX_BEFORE, TICKET_KINDS } from "../../support/driftTraffic.js";
import { ManualClock } from "../../support/ManualClock.js";
import { captureStdout } from "../support/captureStdout.js";

const REGION = "us-east-1";
const TABLE = "outcomes";
const HOUR = 3_600_000;
const START = Date.parse("2026-12-01T00:00:00.000Z");
const HOURS = 20;
const BASELINE_WINDOWS = 12;
/** The planted shift: from this time on, a new kind of state takes almost half the traffic. */
const SHIFT = START + 16 * HOUR;

function traffic(policy: string, shiftAt: number | undefined, seed: number): Outcome[] {
  return generateTraffic({
    policy,
    question: "route",
    start: START,
    hours: HOURS,
    perHour: 60,
    kinds: TICKET_KINDS,
    mixAt: (at) => (shiftAt !== undefined && at >= shiftAt ? MIX_AFTER : MIX_BEFORE),
    threshold: 0.6,
    fallback: "technical",
    seed,
  });
}

/** The `PolicyDrift` value of each EMF document the handler printed, by policy. */
function policyDistances(lines: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of lines) {
    // The test runner's own events may share stdout while it is captured: only JSON lines count.
    if (!line.startsWith("{")) continue;
    const doc = JSON.parse(line) as Record<string, unknown>;
    if (!("_aws" in doc) || typeof doc[DRIFT_METRICS.policyDistance] !== "number") continue;
    found.set(String(doc[DRIFT_METRICS.policyDimension]), doc[DRIFT_METRICS.policyDistance] as number);
  }
  return found;
}

/**
 * A policy folder holding the policy the traffic is named for ("shifted": the one question
 * `route` the traffic answers), for `decisions drift --policies`, which names only known policies.
 */
function shiftedPolicyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "drift-policies-"));
  const policy = [
    "name: shifted",
    'version: "1"',
    "description: Generated tickets for the drift test.",
    "questions:",
    "  route:",
    "    type: choice",
    "    instructions: Which team should handle this ticket?",
    "    criteria:",
    "      billing: Invoices and payments.",
    "      technical: Errors and how-to questions.",
    "      account: Sign-in and account access.",
    "    threshold: 0.6",
    "    fallback: technical",
    "",
  ].join("\n");
  writeFileSync(join(dir, "shifted.yaml"), policy);
  return dir;
}

describe("drift on DynamoDB Local (integration)", () => {
  let dynamo: DynamoDbLocal;
  let client: DynamoDBClient;
  let policyDir: string;

  before(async () => {
    policyDir = shiftedPolicyDir();
    dynamo = await startDynamoDbLocal({ env: process.env });
    client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
    });
    await client.send(new CreateTableCommand(outcomesTableDefinition(TABLE)));
    const store = new OutcomeStore({
      client: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
      tableName: TABLE,
      retry: new RetryPolicy({ maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 }),
    });
    const outcomes = [...traffic("shifted", SHIFT, 3), ...traffic("steady", undefined, 3)];
    // Eight writes in flight: the writer's own conditional put, as the decide function makes it.
    for (let index = 0; index < outcomes.length; index += 8) {
      await Promise.all(
        outcomes
          .slice(index, index + 8)
          .map((outcome) => store.put(outcome, { deadline: new Deadline(Date.now() + 60_000) })),
      );
    }
  });

  after(async () => {
    client?.destroy();
    await dynamo?.stop();
    rmSync(policyDir, { recursive: true, force: true });
  });

  it("publishes a distance that crosses the alarm threshold after the planted shift and never before; unchanged traffic never crosses it", async () => {
    const clock = new ManualClock(START);
    const handler = createDriftMonitorHandler(
      createDriftMonitorDeps(
        {
          outcomesTable: TABLE,
          policies: ["shifted", "steady"],
          windowMinutes: 60,
          baselineWindows: BASELINE_WINDOWS,
          minOutcomes: 50,
          threshold: DEFAULT_DRIFT_THRESHOLD,
        },
        {
          dynamodb: client,
          clock,
          logger: new Logger({ serviceName: DRIFT_METRICS.service, logLevel: "SILENT" }),
          metrics: new Metrics({ namespace: "Decisions", serviceName: DRIFT_METRICS.service }),
        },
      ),
    );
    const context = createLambdaContext({ functionName: "drift-monitor", region: REGION, timeoutMs: 60_000 });
    const published: { at: number; shifted: number | undefined; steady: number | undefined }[] = [];

    // Act: the scheduled check once an hour, from the first hour with a whole baseline to the last.
    for (let hour = BASELINE_WINDOWS + 1; hour <= HOURS; hour += 1) {
      clock.time = START + hour * HOUR;
      const { lines } = await captureStdout(() => handler({}, context));
      const distances = policyDistances(lines);
      published.push({ at: clock.time, shifted: distances.get("shifted"), steady: distances.get("steady") });
    }

    // Assert: every check published both policies; over the threshold only after the shift.
    const table = JSON.stringify(published);
    for (const check of published) {
      assert.ok(check.shifted !== undefined && check.steady !== undefined, table);
      assert.ok(check.steady < DEFAULT_DRIFT_THRESHOLD, `unchanged traffic fired: ${table}`);
      if (check.at <= SHIFT) assert.ok(check.shifted < DEFAULT_DRIFT_THRESHOLD, `fired before T: ${table}`);
    }
    const firstAfter = published.find((check) => check.at === SHIFT + HOUR);
    assert.ok((firstAfter?.shifted ?? 0) > DEFAULT_DRIFT_THRESHOLD, `not over after T: ${table}`);
  });

  it("decisions drift --json gives each question's distance, whether it is over the threshold, the moved options and flags", async () => {
    let out = "";
    const command = createDriftCommand({
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: () => true },
      now: () => SHIFT + HOUR,
    });

    const code = await command.run([
      "--policy",
      "shifted",
      "--policies",
      policyDir,
      "--baseline-windows",
      String(BASELINE_WINDOWS),
      "--json",
      "--endpoint-url",
      dynamo.endpoint,
      "--table",
      TABLE,
    ]);

    assert.equal(code, 0);
    const report = JSON.parse(out) as {
      policy: string;
      over_threshold: boolean;
      outcomes: { read: number; kept: number };
      questions: Record<string, unknown>[];
    };
    assert.equal(report.policy, "shifted");
    assert.equal(report.over_threshold, true);
    const [question] = report.questions;
    assert.ok(question !== undefined);
    for (const key of ["question", "distance", "over_threshold", "moved", "flags", "counts", "noise"])
      assert.ok(key in question, `${key} in ${Object.keys(question).join(", ")}`);
    assert.equal(question.question, "route");
    assert.equal(question.over_threshold, true);
    assert.ok((question.distance as number) > DEFAULT_DRIFT_THRESHOLD);
    assert.deepEqual(question.counts as { window: number; baseline: number }, {
      window: 60,
      baseline: 60 * BASELINE_WINDOWS,
    });
    // The read goes through the by-status index from the baseline's start: only those items.
    assert.equal(report.outcomes.kept, 60 * (BASELINE_WINDOWS + 1));
    assert.ok(report.outcomes.read < 60 * HOURS, `read ${report.outcomes.read} of ${60 * HOURS}`);
  });

  it("decisions drift without --json says which question is over the threshold and which options moved", async () => {
    let out = "";
    const command = createDriftCommand({
      stdout: { write: (text: string) => (out += text) },
      now: () => SHIFT + HOUR,
    });

    const code = await command.run([
      "--policy",
      "shifted",
      "--policies",
      policyDir,
      "--baseline-windows",
      String(BASELINE_WINDOWS),
      "--endpoint-url",
      dynamo.endpoint,
    ]);

    assert.equal(code, 0);
    assert.match(out, /^drift of shifted: window 2026-12-01T16:00:00\.000Z – 2026-12-01T17:00:00\.000Z/);
    assert.match(out, /route: distance 0\.\d{3} bits, OVER THE THRESHOLD/);
    assert.match(out, /moved: billing \d+\.\d% → \d+\.\d%/);
  });
});
