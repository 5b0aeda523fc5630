/**
 * The outcome store on Amazon DynamoDB Local (127.0.0.1) with the real SDK clients: the table as
 * defined, write-once outcomes, the existing item carried by a duplicate, the review index, and a
 * refused connection retried as transient.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetriesExhaustedError } from "../../../core/common/errors.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import {
  type Outcome,
  OutcomeAlreadyRecordedError,
  OutcomeStore,
  outcomesTableDefinition,
} from "../../../core/outcomes/index.js";
import { type DynamoDbLocal, LOCAL_CREDENTIALS, startDynamoDbLocal } from "../../../local/index.js";
import { FakeClock } from "../../support/FakeClock.js";

function outcome(
  id: string,
  status: Outcome["status"],
  updatedAt: string,
  extra: Partial<Outcome> = {},
): Outcome {
  return {
    policy: "ticket-routing",
    id,
    policy_status: `ticket-routing#${status}`,
    status,
    rules_fired: [],
    source: { kind: "sqs", message_id: `m-${id}`, receive_count: 1 },
    created_at: updatedAt,
    updated_at: updatedAt,
    ...extra,
  };
}

describe("OutcomeStore on DynamoDB Local (integration)", () => {
  let dynamo: DynamoDbLocal;
  let client: DynamoDBClient;
  let store: OutcomeStore;
  const deadline = () => new Deadline(Date.now() + 30_000);

  before(async () => {
    dynamo = await startDynamoDbLocal({ env: process.env });
    client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    await client.send(new CreateTableCommand(outcomesTableDefinition("outcomes")));
    store = new OutcomeStore({
      client: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
      tableName: "outcomes",
      retry: new RetryPolicy({ maxAttempts: 2, baseDelayMs: 1 }),
    });
  });

  after(async () => {
    client?.destroy();
    await dynamo?.stop();
  });

  it("writes an outcome once; a second write for the same key carries the first, unmarshalled", async () => {
    const first = outcome("T-1", "decided", "2026-01-01T10:00:00.000Z", {
      answers: {
        queue: {
          answer: "billing",
          probability: 0.8,
          distribution: { billing: 0.8, sales: 0.2 },
          threshold: 0.5,
          source: "model",
        },
      },
    });
    await store.put(first, { deadline: deadline() });

    const error = await store
      .put(outcome("T-1", "rejected", "2026-01-01T11:00:00.000Z", { reason: "different" }), {
        deadline: deadline(),
      })
      .catch((e: unknown) => e);

    assert.ok(error instanceof OutcomeAlreadyRecordedError);
    assert.deepEqual(error.existing, first);
    assert.deepEqual(await store.get("ticket-routing", "T-1"), first);
  });

  it("writes a minimal rejected outcome with its hashes when the table refuses the outcome as invalid", async () => {
    // An empty index key is refused by DynamoDB (ValidationException), like an item over 400 KB.
    const refused = outcome("T-refused", "decided", "2026-01-01T10:00:00.000Z", {
      policy_status: "",
      state_sha256: "c".repeat(64),
      state_bytes: 12,
      policy_sha256: "d".repeat(64),
      policy_version: "3",
    });

    const written = await store.put(refused, { deadline: deadline() });

    const stored = await store.get("ticket-routing", "T-refused");
    assert.deepEqual(stored, written);
    assert.equal(stored?.status, "rejected");
    assert.equal(stored?.policy_status, "ticket-routing#rejected");
    assert.match(
      stored?.reason ?? "",
      /^the outcomes table refused the outcome \(decided, \d+ bytes of JSON\) as invalid: .*only its identity and hashes are kept$/,
    );
    assert.deepEqual(
      [stored?.state_sha256, stored?.policy_sha256, stored?.policy_version, stored?.source.message_id],
      ["c".repeat(64), "d".repeat(64), "3", "m-T-refused"],
    );
  });

  it("reports a duplicate as a result through record()", async () => {
    await store.record(outcome("T-2", "fallback", "2026-01-01T10:00:00.000Z"), { deadline: deadline() });
    const again = await store.record(outcome("T-2", "decided", "2026-01-01T12:00:00.000Z"), {
      deadline: deadline(),
    });
    assert.equal(again.recorded, false);
    assert.equal((again as { existing: Outcome }).existing.status, "fallback");
  });

  it("lists one policy's outcomes of one status, newest first, through the review index", async () => {
    for (const [id, at] of [
      ["R-1", "2026-02-01T08:00:00.000Z"],
      ["R-2", "2026-02-03T08:00:00.000Z"],
      ["R-3", "2026-02-02T08:00:00.000Z"],
    ] as const) {
      await store.put(outcome(id, "fallback", at), { deadline: deadline() });
    }
    const page = await store.listByStatus("ticket-routing", "fallback", { limit: 3 });
    assert.deepEqual(
      page.items.map((item) => item.id),
      ["R-2", "R-3", "R-1"],
    );
  });

  it("keeps an item with a huge state preview far below 400 KB (the preview is bounded)", async () => {
    const big = outcome("T-big", "decided", "2026-01-01T10:00:00.000Z", {
      state_preview: "x".repeat(512),
      state_bytes: 5_000_000,
    });
    const written = await store.put(big, { deadline: deadline() });
    assert.ok(Buffer.byteLength(JSON.stringify(written)) < 4096);
  });

  it("retries a refused connection as transient and gives up with the attempts counted", async () => {
    const down = new DynamoDBClient({
      endpoint: "http://127.0.0.1:9",
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    const clock = new FakeClock();
    const unreachable = new OutcomeStore({
      client: DynamoDBDocumentClient.from(down),
      tableName: "outcomes",
      retry: new RetryPolicy({ maxAttempts: 3, random: () => 0 }),
    });
    try {
      const error = await unreachable
        .put(outcome("T-down", "decided", "2026-01-01T10:00:00.000Z"), {
          deadline: new Deadline(clock.now() + 60_000, clock),
        })
        .catch((e: unknown) => e);
      assert.ok(error instanceof RetriesExhaustedError, String(error));
      assert.equal(error.attempts, 3);
      assert.equal((error.cause as Error).name, "TransientOutcomeStoreError");
    } finally {
      down.destroy();
    }
  });

  it("supersedes only the version it read, keeping the old outcome in the history; a redelivery does not supersede twice", async () => {
    const old = outcome("S-1", "rejected", "2026-01-01T10:00:00.000Z", {
      reason: "facts: tier must be one of gold, silver",
      payload_sha256: "a".repeat(64),
      work_item: '{"id":"S-1"}',
    });
    await store.put(old, { deadline: deadline() });
    const redecided = outcome("S-1", "decided", "2026-01-01T11:00:00.000Z", {
      source: { kind: "sqs", message_id: "m-redecide", receive_count: 1 },
      payload_sha256: "a".repeat(64),
    });
    const stale = await store.record(redecided, {
      deadline: deadline(),
      supersede: "2026-01-01T09:00:00.000Z",
    });
    assert.equal(stale.recorded, false);
    assert.match(stale.recorded ? "" : (stale.refused ?? ""), /changed since it was read/);
    assert.equal((await store.get("ticket-routing", "S-1"))?.status, "rejected");

    const done = await store.record(redecided, { deadline: deadline(), supersede: old.updated_at });
    assert.equal(done.recorded, true);
    assert.equal(done.recorded && done.superseded, old.updated_at);
    const stored = await store.get("ticket-routing", "S-1");
    assert.equal(stored?.status, "decided");
    assert.deepEqual(stored?.supersedes, {
      updated_at: old.updated_at,
      status: "rejected",
      requested: old.updated_at,
    });
    assert.equal(stored?.history?.length, 1);
    assert.equal(stored?.history?.[0]?.status, "rejected");
    assert.equal(stored?.history?.[0]?.reason, old.reason);
    assert.equal(stored?.history?.[0]?.message_id, "m-S-1");

    // The same message delivered again (with "*" even) finds its own outcome: a quiet duplicate.
    const again = await store.record(
      { ...redecided, updated_at: "2026-01-01T11:05:00.000Z" },
      { deadline: deadline(), supersede: "*" },
    );
    assert.equal(again.recorded, false);
    assert.equal(again.recorded ? undefined : again.refused, undefined);
    assert.equal((await store.get("ticket-routing", "S-1"))?.updated_at, redecided.updated_at);
  });

  it("records a different payload under an existing id as a conflict once; the same payload stays a quiet duplicate", async () => {
    const first = outcome("C-1", "decided", "2026-01-01T10:00:00.000Z", { payload_sha256: "b".repeat(64) });
    await store.put(first, { deadline: deadline() });
    const same = await store.record(
      { ...first, source: { kind: "sqs", message_id: "m-again", receive_count: 1 } },
      { deadline: deadline() },
    );
    assert.deepEqual(same.recorded ? "recorded" : [same.conflict, same.refused], [undefined, undefined]);

    const other = outcome("C-1", "decided", "2026-01-01T10:30:00.000Z", {
      source: { kind: "sqs", message_id: "m-other", receive_count: 1 },
      payload_sha256: "c".repeat(64),
      work_item: '{"id":"C-1","facts":{"tier":"gold"}}',
      work_item_bytes: 37,
    });
    const conflict = await store.record(other, { deadline: deadline() });
    assert.equal(conflict.recorded ? false : conflict.conflict, true);
    const repeated = await store.record(
      { ...other, source: { kind: "sqs", message_id: "m-other-2", receive_count: 1 } },
      { deadline: deadline() },
    );
    assert.equal(repeated.recorded ? true : repeated.conflict, undefined);
    const stored = await store.get("ticket-routing", "C-1");
    assert.equal(stored?.updated_at, first.updated_at, "the outcome that stands is not changed");
    assert.equal(stored?.conflict_count, 1);
    assert.deepEqual(stored?.conflicts, [
      {
        payload_sha256: "c".repeat(64),
        at: other.updated_at,
        message_id: "m-other",
        preview: other.work_item,
        bytes: 37,
      },
    ]);
  });
});
