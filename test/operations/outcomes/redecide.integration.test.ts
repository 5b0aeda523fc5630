/**
 * Recovery on the real local stack: DynamoDB Local, fauxqs with the event source poller, the real
 * decide handler, the SageMaker gateway and the adapter on the generated tiny model, driven through
 * the `decisions submit` and `decisions outcomes` commands.
 *
 * - An item rejected because the deployed policy was wrong (its `customer_tier` enum lacked
 *   `enterprise`) is decided again after the fix (`outcomes redecide`) and ends decided, with the
 *   rejected outcome in its history.
 * - A different payload under an existing id is a conflict a person can see (`show`, `list
 *   --conflicts`); the same payload again stays a quiet duplicate.
 * - Every outcome carries the served model's sha256 (as its manifest records it) and the adapter build.
 * - An item a person reviewed is kept: `redecide` lists it and sends nothing, a redecide's or a
 *   redriven message's supersede marker (a version, or `*`) does not replace it on the decide path;
 *   only `redecide --replace-reviews` does, the review kept in the history.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { GetQueueAttributesCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { modelManifestPath, readModelManifest } from "../../../adapter/models/modelManifest.js";
import { createOutcomesCommand } from "../../../cli/commands/outcomesCommand.js";
import { createSubmitCommand } from "../../../cli/commands/submitCommand.js";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import type { SqsBatchHandler } from "../../../local/eventSource/SqsEventSourcePoller.js";
import { createLocalDecideHandler } from "../../../local/stack/createLocalDecideHandler.js";
import { type LocalStack, startLocalStack } from "../../../local/stack/startLocalStack.js";
import { supersedeMarker } from "../../../operations/outcomes/index.js";

const POLICY = "ticket-routing";

describe("redecide and payload conflicts on the local stack (integration)", { timeout: 600_000 }, () => {
  let stack: LocalStack;
  let folder: string;
  let documents: DynamoDBDocumentClient;
  /** The handler the poller runs now: the wrong configuration first, the fixed one after. */
  let current: SqsBatchHandler | undefined;
  let fixed: SqsBatchHandler | undefined;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "redecide-"));
    const wrong = join(folder, "wrong");
    const shipped = await readFile(join("policies", `${POLICY}.yaml`), "utf8");
    const broken = shipped.replace("enum: [free, pro, business, enterprise]", "enum: [free, pro, business]");
    assert.notEqual(broken, shipped, "the policy's customer_tier enum was found");
    await mkdir(wrong);
    await writeFile(join(wrong, `${POLICY}.yaml`), broken);
    stack = await startLocalStack({
      env: process.env,
      adapterThreads: 2,
      createHandler: async (context) => {
        current = await createLocalDecideHandler(context, { policyDir: wrong });
        fixed = await createLocalDecideHandler(context, { policyDir: "policies" });
        const delegate: SqsBatchHandler = (event, lambdaContext) =>
          (current as SqsBatchHandler)(event, lambdaContext);
        return delegate;
      },
    });
    documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  });

  after(async () => {
    await stack?.stop();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  const tableFlags = () => [
    "--policy",
    POLICY,
    "--endpoint-url",
    String(stack.connectionInfo().dynamodb_endpoint),
    "--table",
    stack.table,
  ];

  async function outcomes(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = "";
    let err = "";
    const command = createOutcomesCommand({
      stdout: {
        write: (text: string) => {
          out += text;
          return true;
        },
      },
      stderr: {
        write: (text: string) => {
          err += text;
          return true;
        },
      },
    });
    const code = await command.run([...args, ...tableFlags()]);
    return { code, out, err };
  }

  async function submit(lines: object[], extra: string[] = []): Promise<void> {
    const file = join(folder, `items-${Math.random().toString(36).slice(2)}.jsonl`);
    await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    let err = "";
    const code = await createSubmitCommand({
      stdout: { write: () => true },
      stderr: {
        write: (text: string) => {
          err += text;
          return true;
        },
      },
    }).run([
      file,
      "--queue-url",
      stack.queueUrl,
      "--endpoint-url",
      String(stack.connectionInfo().sqs_endpoint),
      ...extra,
    ]);
    assert.equal(code, 0, err);
  }

  async function stored(id: string): Promise<StoredOutcome | undefined> {
    const got = await documents.send(
      new GetCommand({ TableName: stack.table, Key: { policy: POLICY, id }, ConsistentRead: true }),
    );
    return got.Item as StoredOutcome | undefined;
  }

  /** Waits, while the pipeline makes progress, until `done` holds for the stored outcome of `id`. */
  async function until(
    id: string,
    done: (outcome: StoredOutcome | undefined) => boolean,
  ): Promise<StoredOutcome> {
    for (;;) {
      const outcome = await stored(id);
      if (done(outcome)) return outcome as StoredOutcome;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Waits until the work queue holds no message, visible or in flight: every message was handled. */
  async function drained(): Promise<void> {
    for (;;) {
      const { Attributes: a = {} } = await stack.clients.sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: stack.queueUrl,
          AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        }),
      );
      if (a.ApproximateNumberOfMessages === "0" && a.ApproximateNumberOfMessagesNotVisible === "0") return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const enterprise = {
    id: "T-enterprise",
    policy: POLICY,
    state: { subject: "Our SSO login fails for every user", body: "Since this morning nobody can log in." },
    facts: { customer_tier: "enterprise" },
  };
  const pro = {
    id: "T-pro",
    policy: POLICY,
    state: { subject: "Invoice shows the wrong amount", body: "We were charged twice." },
    facts: { customer_tier: "pro" },
  };

  it("records the model's sha256 and the adapter build in outcomes, as up's line does", async () => {
    await submit([pro]);
    const outcome = await until(pro.id, (o) => o !== undefined);
    const manifest = await readModelManifest(modelManifestPath(stack.model.path));
    assert.equal(outcome.model_sha256, manifest.sha256);
    assert.equal(stack.connectionInfo().model_sha256, manifest.sha256);
    assert.match(outcome.adapter_build ?? "", /^decisions \d+\.\d+\.\d+ \(llama\.cpp .+\)$/);
    assert.equal(outcome.work_item, JSON.stringify(pro), "the work item is kept as it arrived");
    assert.match(outcome.payload_sha256 ?? "", /^[0-9a-f]{64}$/);
  });

  it("keeps the same payload again a quiet duplicate and records another payload as a visible conflict", async () => {
    const before = await until(pro.id, (o) => o !== undefined);
    await submit([{ ...pro, submitted_at: "2026-12-01T12:00:00Z" }]);
    await drained();
    const same = await stored(pro.id);
    assert.equal(same?.updated_at, before.updated_at);
    assert.equal(same?.conflict_count, undefined, "the same payload is no conflict");

    const corrected = { ...pro, facts: { customer_tier: "business" } };
    await submit([corrected]);
    const conflicted = await until(pro.id, (o) => o?.conflict_count !== undefined);
    assert.equal(conflicted.updated_at, before.updated_at, "the outcome that stands is not replaced");
    assert.equal(conflicted.conflicts?.length, 1);
    assert.equal(conflicted.conflicts?.[0]?.preview, JSON.stringify(corrected));

    const shown = await outcomes(["show", pro.id]);
    assert.equal(shown.code, 0, shown.err);
    assert.equal(
      JSON.parse(shown.out).conflicts[0].payload_sha256,
      conflicted.conflicts?.[0]?.payload_sha256,
    );
    const listed = await outcomes(["list", "--conflicts"]);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /T-pro .*\[1 conflict\(s\)\]/);
    assert.doesNotMatch(listed.out, /T-enterprise/);
  });

  it("decides again, after the configuration is fixed, an item the wrong configuration rejected; the rejection stays in its history", async () => {
    await submit([enterprise]);
    const rejected = await until(enterprise.id, (o) => o !== undefined);
    assert.equal(rejected.status, "rejected");
    assert.match(rejected.reason ?? "", /customer_tier/);

    // Resubmitting it unchanged is absorbed: the same payload under the same id.
    await submit([enterprise]);
    await drained();
    assert.equal((await stored(enterprise.id))?.updated_at, rejected.updated_at);

    current = fixed; // the fixed policy deployed
    const dry = await outcomes([
      "redecide",
      "--status",
      "rejected",
      "--since",
      "2000-01-01T00:00:00Z",
      "--dry-run",
    ]);
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /1 outcome\(s\) of ticket-routing with status rejected/);
    assert.match(dry.out, /dry run: 1 would be sent again, 0 cannot be: T-enterprise/);
    assert.equal((await stored(enterprise.id))?.updated_at, rejected.updated_at, "a dry run sends nothing");

    const sent = await outcomes([
      "redecide",
      enterprise.id,
      "--queue-url",
      stack.queueUrl,
      "--sqs-endpoint-url",
      String(stack.connectionInfo().sqs_endpoint),
    ]);
    assert.equal(sent.code, 0, sent.err);
    assert.match(sent.out, /sent 1 item\(s\) to be decided again/);
    const redecided = await until(enterprise.id, (o) => o?.updated_at !== rejected.updated_at);
    assert.notEqual(redecided.status, "rejected");
    assert.ok(redecided.answers?.queue !== undefined, "decided: the model answered");
    assert.deepEqual(redecided.supersedes, {
      updated_at: rejected.updated_at,
      status: "rejected",
      requested: rejected.updated_at,
    });
    assert.equal(redecided.history?.length, 1);
    assert.equal(redecided.history?.[0]?.status, "rejected");
    assert.equal(redecided.history?.[0]?.reason, rejected.reason);
    assert.equal(redecided.history?.[0]?.message_id, rejected.source.message_id);
    assert.equal(redecided.payload_sha256, rejected.payload_sha256);

    const shown = JSON.parse((await outcomes(["show", enterprise.id])).out) as StoredOutcome;
    assert.equal(shown.history?.[0]?.status, "rejected");
  });

  it("keeps an item a person reviewed: redecide lists it, supersede markers do not replace it, --replace-reviews does", async () => {
    const reviewedItem = {
      id: "T-reviewed",
      policy: POLICY,
      state: { subject: "Refund for a double charge", body: "Please refund the second charge." },
      facts: { customer_tier: "pro" },
    };
    current = fixed;
    await submit([reviewedItem]);
    await until(reviewedItem.id, (o) => o !== undefined);
    const review = await outcomes([
      "review",
      reviewedItem.id,
      "--set",
      "queue=billing",
      "--set",
      "priority=P3",
      "--set",
      "needs_human=no",
      "--by",
      "alice",
    ]);
    assert.equal(review.code, 0, review.err);
    const reviewed = await until(reviewedItem.id, (o) => o?.status === "reviewed");

    const single = await outcomes([
      "redecide",
      reviewedItem.id,
      "--queue-url",
      stack.queueUrl,
      "--sqs-endpoint-url",
      String(stack.connectionInfo().sqs_endpoint),
    ]);
    assert.equal(single.code, 1, "a reviewed item kept is reported");
    assert.match(single.err, /kept: ticket-routing\/T-reviewed: a person reviewed it \(reviewed, by alice\)/);
    assert.doesNotMatch(single.out, /sent 1 item/);
    const dry = await outcomes([
      "redecide",
      "--status",
      "reviewed",
      "--since",
      "2000-01-01T00:00:00Z",
      "--dry-run",
    ]);
    assert.match(dry.out, /dry run: 0 would be sent again, 0 cannot be, 1 reviewed kept/);

    // An old redecide's message (the version read) and a redriven `*` reach the decide path.
    await stack.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.queueUrl,
        MessageBody: reviewed.work_item ?? "",
        MessageAttributes: supersedeMarker(reviewed.updated_at),
      }),
    );
    await submit([reviewedItem], ["--supersede"]);
    await drained();
    const kept = await stored(reviewedItem.id);
    assert.equal(kept?.status, "reviewed", "the person's review stands");
    assert.equal(kept?.updated_at, reviewed.updated_at);
    assert.equal(kept?.review?.by, "alice");

    const replaced = await outcomes([
      "redecide",
      reviewedItem.id,
      "--replace-reviews",
      "--queue-url",
      stack.queueUrl,
      "--sqs-endpoint-url",
      String(stack.connectionInfo().sqs_endpoint),
    ]);
    assert.equal(replaced.code, 0, replaced.err);
    const redecided = await until(reviewedItem.id, (o) => o?.updated_at !== reviewed.updated_at);
    assert.notEqual(redecided.status, "reviewed");
    assert.equal(redecided.supersedes?.requested, `replace-reviews:${reviewed.updated_at}`);
    assert.equal(redecided.history?.at(-1)?.status, "reviewed");
    assert.equal(redecided.history?.at(-1)?.reviewed_by, "alice");
    // Who answered what stays with the replaced outcome, under the reviewer's name.
    assert.equal(redecided.history?.at(-1)?.answers?.queue?.by, "alice");
    assert.deepEqual(
      redecided.history?.at(-1)?.reviews?.map((entry) => [entry.by, entry.answers]),
      [["alice", { queue: "billing", priority: "P3", needs_human: false }]],
    );
  });
});
