/**
 * Shadow records on DynamoDB Local (127.0.0.1): the store writes and lists them by policy and time,
 * and no reader of the outcomes table takes one for an outcome — the outcomes reader (get, newest,
 * all, in range, conflicts), the export, the review console's queue, item and pictures, the failure
 * records, and the outcomes Pipe's filter (what the stream → bus publisher lets through).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { FailureRecordStore } from "../../../core/failures/index.js";
import {
  MalformedShadowRecordError,
  OutcomeNotFoundError,
  OutcomesReader,
  outcomesTableDefinition,
  ShadowRecordStore,
  type ShadowResult,
  type StoredOutcome,
} from "../../../core/outcomes/index.js";
import { scanAllOutcomes } from "../../../core/outcomes/scanAllOutcomes.js";
import { applyPolicy, loadPolicies, type Policy, type PolicySet } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../core/review/ReviewApi.js";
import { OUTCOME_EVENTS_PATTERN } from "../../../infra/constructs/OutcomesTable.js";
import { exportOutcomes } from "../../../operations/outcomes/index.js";
import { type LocalTables, startLocalTables } from "../../support/startLocalTables.js";

const POLICIES = fileURLToPath(new URL("../../../policies/", import.meta.url));
const TABLE = "outcomes";
const POLICY = "ticket-routing";

describe("shadow records on DynamoDB Local (integration)", () => {
  let tables: LocalTables;
  let documents: DynamoDBDocumentClient;
  let policies: PolicySet;
  let policy: Policy;
  let clockMs = Date.UTC(2026, 11, 1, 10, 0, 0);
  const clock = { now: () => clockMs, sleep: async () => undefined };
  let shadows: ShadowRecordStore;

  /** What the policy decides for these probabilities (the live outcome's and the candidate's answers). */
  function decide(queue: Record<string, number>): ShadowResult {
    const decision = applyPolicy(
      policy,
      {},
      {
        queue: { type: "choice", probabilities: queue },
        priority: { type: "choice", probabilities: { P1: 0.05, P2: 0.05, P3: 0.85, P4: 0.05 } },
        needs_human: { type: "noul", noul: 0.02 },
      },
    );
    return { status: decision.status, answers: decision.answers, rules_fired: decision.rules_fired };
  }

  const labelsOf = (weights: Record<string, number>) =>
    Object.fromEntries(
      (policy.question("queue") as { labels: string[] }).labels.map((label) => [label, weights[label] ?? 0]),
    );

  before(async () => {
    tables = await startLocalTables({ tables: [outcomesTableDefinition(TABLE)] });
    ({ documents } = tables);
    policies = await loadPolicies(POLICIES);
    policy = policies.get(POLICY) as Policy;
    shadows = new ShadowRecordStore({ client: documents, tableName: TABLE, clock });

    // The live outcome: sent to review (its queue answer below the threshold).
    const live = decide(labelsOf({ billing: 0.4, technical_support: 0.35, triage: 0.25 }));
    assert.equal(live.status, "fallback");
    const outcome = {
      policy: POLICY,
      id: "T-1",
      policy_status: `${POLICY}#${live.status}`,
      ...live,
      source: { kind: "sqs", message_id: "m-1" },
      created_at: "2026-12-01T09:59:00.000Z",
      updated_at: "2026-12-01T09:59:00.000Z",
    };
    await documents.send(new PutCommand({ TableName: TABLE, Item: outcome }));
  });

  after(async () => {
    await tables?.stop();
  });

  it("writes a candidate's result and failure and lists them by policy, time and candidate, the newest per item", async () => {
    const candidate = decide(labelsOf({ billing: 0.97, technical_support: 0.02, triage: 0.01 }));
    const first = await shadows.put({
      policy: POLICY,
      id: "T-1",
      candidate: { name: "seed-7", model_sha256: "b".repeat(64), policy_version: 3 },
      result: candidate,
      live: { updatedAt: "2026-12-01T09:59:00.000Z", status: "fallback" },
      timings: { endpoint_ms: 41 },
      sample: { rate: 0.5, draw: 0.12 },
    });
    assert.equal(first.policy, `_shadow#${POLICY}`);
    assert.equal(first.id, `2026-12-01T10:00:00.000Z#seed-7#T-1`);
    assert.equal(first.record_kind, "shadow");
    assert.equal(first.expires_at, Math.floor(clockMs / 1000) + 30 * 24 * 3600);

    clockMs += 60_000;
    await shadows.put({
      policy: POLICY,
      id: "T-2",
      candidate: { name: "seed-7" },
      failure: new Error("the candidate endpoint timed out"),
    });
    clockMs += 60_000;
    const again = await shadows.put({
      policy: POLICY,
      id: "T-1",
      candidate: { name: "seed-7" },
      result: candidate,
    });
    clockMs += 60_000;
    await shadows.put({ policy: POLICY, id: "T-1", candidate: { name: "policy-v4" }, result: candidate });

    const all: string[] = [];
    for await (const page of shadows.list(POLICY)) all.push(...page.map((record) => record.id));
    assert.deepEqual(all, [
      "2026-12-01T10:00:00.000Z#seed-7#T-1",
      "2026-12-01T10:01:00.000Z#seed-7#T-2",
      "2026-12-01T10:02:00.000Z#seed-7#T-1",
      "2026-12-01T10:03:00.000Z#policy-v4#T-1",
    ]);
    const latest = await shadows.latest(POLICY, { candidate: "seed-7" });
    assert.deepEqual(
      latest.map((record) => [record.item_id, record.decided_at]),
      [
        ["T-2", "2026-12-01T10:01:00.000Z"],
        ["T-1", again.decided_at],
      ],
    );
    assert.equal(latest[0]?.failure?.error, "Error");
    assert.match(latest[0]?.failure?.reason ?? "", /timed out/);
    const ranged = await shadows.latest(POLICY, {
      since: "2026-12-01T10:01:00Z",
      until: "2026-12-01T10:02:00Z",
    });
    assert.deepEqual(
      ranged.map((record) => record.id),
      ["2026-12-01T10:01:00.000Z#seed-7#T-2", "2026-12-01T10:02:00.000Z#seed-7#T-1"],
    );
    assert.deepEqual(await shadows.latest("other-policy"), []);
  });

  it("refuses a record with a candidate name that would break its key, or with neither result nor failure", async () => {
    await assert.rejects(
      shadows.put({ policy: POLICY, id: "T-9", candidate: { name: "a#b" }, failure: new Error("x") }),
      MalformedShadowRecordError,
    );
    await assert.rejects(
      shadows.put({ policy: POLICY, id: "T-9", candidate: { name: "seed-7" } }),
      (error: unknown) => error instanceof MalformedShadowRecordError && /either/.test(error.message),
    );
  });

  it("is returned by no reader of outcomes: reader, table scan, export, review console, failure records", async () => {
    const reader = new OutcomesReader({ client: documents, tableName: TABLE });
    const ids = (outcomes: StoredOutcome[]) => outcomes.map((outcome) => `${outcome.policy}/${outcome.id}`);
    assert.deepEqual(ids(await reader.newest(POLICY, { limit: 100 })), [`${POLICY}/T-1`]);
    assert.deepEqual(ids(await reader.newest(POLICY, { status: "decided", limit: 100 })), []);
    const all: StoredOutcome[] = [];
    for await (const page of reader.all(POLICY)) all.push(...page);
    assert.deepEqual(ids(all), [`${POLICY}/T-1`]);
    const ranged: StoredOutcome[] = [];
    for (const status of ["decided", "fallback"] as const)
      for await (const page of reader.inRange(POLICY, status, {
        since: "2000-01-01T00:00:00.000Z",
        until: "2100-01-01T00:00:00.000Z",
      }))
        ranged.push(...page);
    assert.deepEqual(ids(ranged), [`${POLICY}/T-1`]);
    assert.deepEqual(await reader.withConflicts(POLICY, { limit: 100 }), []);
    assert.equal(await reader.get(POLICY, "T-2"), undefined, "a shadowed item without an outcome has none");
    // A failure record shares the table too; a scan of the whole table (the local demo's) skips both.
    await new FailureRecordStore({ client: documents, tableName: TABLE }).record({
      messageId: "m-failed",
      item: { policy: POLICY, id: "T-9" },
      reason: new Error("the endpoint was busy"),
      attempts: 1,
    });
    const scanned: StoredOutcome[] = [];
    for await (const page of scanAllOutcomes(documents, TABLE)) scanned.push(...page);
    assert.deepEqual(ids(scanned), [`${POLICY}/T-1`]);

    let exported = "";
    for await (const chunk of exportOutcomes(
      { table: reader, policy: POLICY, format: "jsonl" },
      { read: 0, written: 0 },
    ))
      exported += chunk;
    assert.deepEqual(
      exported
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).id),
      ["T-1"],
    );

    const console = new ReviewApi({ client: documents, tableName: TABLE, policies });
    const queue = await console.queue({ policy: POLICY });
    assert.deepEqual(
      queue.items.map((item) => item.id),
      ["T-1"],
    );
    assert.equal((await console.stats(POLICY)).outcomes, 1);
    await assert.rejects(console.item(POLICY, "T-2"), OutcomeNotFoundError);

    const failures = new FailureRecordStore({ client: documents, tableName: TABLE });
    assert.equal(await failures.byItem(POLICY, "T-2"), undefined);
  });

  it("is left out by the outcomes Pipe's filter, which lets the outcome through", async () => {
    const [record] = await shadows.latest(POLICY, { candidate: "policy-v4" });
    assert.ok(record !== undefined);
    const image = marshall(record, { removeUndefinedValues: true });
    const outcomeImage = marshall({ policy: POLICY, id: "T-1", status: "fallback" });
    // The Pipe's pattern: INSERT/MODIFY whose NewImage has no `record_kind` string.
    assert.deepEqual(OUTCOME_EVENTS_PATTERN.dynamodb.NewImage, { record_kind: { S: [{ exists: false }] } });
    const passes = (newImage: Record<string, unknown>) => !("record_kind" in newImage);
    assert.deepEqual(image.record_kind, { S: "shadow" });
    assert.equal(passes(image), false, "the shadow record's stream record is not published");
    assert.equal(passes(outcomeImage), true, "an outcome's is");
  });
});
