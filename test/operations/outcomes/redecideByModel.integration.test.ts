/**
 * Promotion and re-decision with a diff on the real local stack, with two generated models of
 * different seeds: items decided by the old model (seed 42), one of them reviewed by a person;
 * the stack restarted on the new model (seed 7) over the same DynamoDB Local data; an item decided
 * by the new model; then `decisions outcomes redecide --model-sha256 <old> --diff <file>`.
 *
 * It re-decides only the old model's outcomes, keeps the reviewed one as the person left it,
 * leaves the new model's outcome alone, and the diff file lists exactly the status and answer
 * changes between each outcome before and after (id, old, new).
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import { createOutcomesCommand } from "../../../cli/commands/outcomesCommand.js";
import { createSubmitCommand } from "../../../cli/commands/submitCommand.js";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { createLocalDecideHandler } from "../../../local/stack/createLocalDecideHandler.js";
import { type LocalStack, startLocalStack } from "../../../local/stack/startLocalStack.js";
import type { RedecideDiff } from "../../../operations/outcomes/index.js";

const POLICY = "ticket-routing";
const NEW_SEED = 7;

describe("redecide --model-sha256 with a diff, across two models (integration)", { timeout: 900_000 }, () => {
  let folder: string;
  let stack: LocalStack | undefined;
  let oldSha: string;
  let newSha: string;
  const before_: Record<string, StoredOutcome> = {};
  let result: { code: number; out: string; err: string };
  let diff: RedecideDiff;

  const start = (model: string | undefined) =>
    startLocalStack({
      env: process.env,
      adapterThreads: 2,
      dataDir: join(folder, "dynamodb"),
      ...(model === undefined ? {} : { model }),
      createHandler: (context) => createLocalDecideHandler(context, { policyDir: join(folder, "policies") }),
    });

  const io = (sink: { out: string; err: string }) => ({
    stdout: {
      write: (text: string) => {
        sink.out += text;
        return true;
      },
    },
    stderr: {
      write: (text: string) => {
        sink.err += text;
        return true;
      },
    },
  });

  async function outcomes(args: string[]): Promise<{ code: number; out: string; err: string }> {
    const live = stack as LocalStack;
    const sink = { out: "", err: "" };
    const code = await createOutcomesCommand(io(sink)).run([
      ...args,
      "--policy",
      POLICY,
      "--endpoint-url",
      String(live.connectionInfo().dynamodb_endpoint),
      "--table",
      live.table,
    ]);
    return { code, ...sink };
  }

  async function submit(items: object[]): Promise<void> {
    const live = stack as LocalStack;
    const file = join(folder, `items-${Math.random().toString(36).slice(2)}.jsonl`);
    await writeFile(file, `${items.map((item) => JSON.stringify(item)).join("\n")}\n`);
    const sink = { out: "", err: "" };
    const code = await createSubmitCommand(io(sink)).run([
      file,
      "--queue-url",
      live.queueUrl,
      "--endpoint-url",
      String(live.connectionInfo().sqs_endpoint),
    ]);
    assert.equal(code, 0, sink.err);
  }

  async function stored(id: string): Promise<StoredOutcome | undefined> {
    const live = stack as LocalStack;
    const documents = DynamoDBDocumentClient.from(live.clients.dynamodb);
    const got = await documents.send(
      new GetCommand({ TableName: live.table, Key: { policy: POLICY, id }, ConsistentRead: true }),
    );
    return got.Item as StoredOutcome | undefined;
  }

  /** Waits, while the pipeline works, until `id` has an outcome. */
  async function decided(id: string): Promise<StoredOutcome> {
    for (;;) {
      const outcome = await stored(id);
      if (outcome !== undefined) return outcome;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const item = (id: string, subject: string, body: string) => ({
    id,
    policy: POLICY,
    state: { subject, body },
    facts: { customer_tier: "pro" },
  });
  const oldItems = [
    item("T-1", "Invoice shows the wrong amount", "We were charged twice this month."),
    item("T-2", "Refund for a double charge", "Please refund the second charge."),
    item("T-3", "API returns 500 on every call", "Our integration is down since the deploy."),
    item("T-4", "Cannot sign in", "Password reset emails never arrive."),
  ];

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "redecide-model-"));
    // The generated models' answers are near uniform: with the shipped thresholds every question
    // would stand on its fallback under both models. Low thresholds let the models' answers stand.
    const shipped = await readFile(join("policies", `${POLICY}.yaml`), "utf8");
    const lowered = shipped.replace(/threshold: 0\.\d+/g, "threshold: 0.01");
    assert.notEqual(lowered, shipped, "the policy's thresholds were found");
    await mkdir(join(folder, "policies"));
    await writeFile(join(folder, "policies", `${POLICY}.yaml`), lowered);
    // The new model: the same kind as the stack's demo model, another seed, with its manifest.
    const newModel = await ensureGeneratedModel("tiny-qwen3", {
      seed: NEW_SEED,
      cacheDir: join(folder, "models"),
    });
    newSha = (
      await writeModelManifest(newModel, { source: "generated:tiny-qwen3", revision: `seed ${NEW_SEED}` })
    ).sha256;

    stack = await start(undefined);
    oldSha = stack.model.sha256;
    assert.notEqual(oldSha, newSha, "two seeds, two models");
    await submit(oldItems);
    for (const { id } of oldItems) await decided(id);
    const review = await outcomes([
      "review",
      "T-2",
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
    for (const { id } of oldItems) before_[id] = (await stored(id)) as StoredOutcome;
    await stack.stop();

    // Promotion: the stack serves the new model over the same table.
    stack = await start(newModel);
    assert.equal(stack.model.sha256, newSha);
    await submit([item("T-5", "Order never arrived", "The parcel is two weeks late.")]);
    before_["T-5"] = await decided("T-5");
    assert.equal(before_["T-5"].model_sha256, newSha);

    result = await outcomes([
      "redecide",
      "--model-sha256",
      oldSha,
      "--diff",
      join(folder, "diff.json"),
      "--wait",
      "600",
      "--queue-url",
      stack.queueUrl,
      "--sqs-endpoint-url",
      String(stack.connectionInfo().sqs_endpoint),
    ]);
    diff = JSON.parse(await readFile(join(folder, "diff.json"), "utf8")) as RedecideDiff;
  });

  after(async () => {
    await stack?.stop();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("re-decides only the old model's outcomes, with the new model", async () => {
    assert.match(result.out, new RegExp(`4 outcome\\(s\\) of ${POLICY} decided by model ${oldSha}`));
    assert.match(result.out, /sent 3 item\(s\) to be decided again/);
    for (const id of ["T-1", "T-3", "T-4"]) {
      const now = (await stored(id)) as StoredOutcome;
      assert.equal(now.model_sha256, newSha, `${id} is decided by the new model`);
      assert.equal(now.supersedes?.updated_at, before_[id]?.updated_at);
      assert.equal(now.history?.at(-1)?.model_sha256, oldSha, "the old outcome stays in its history");
    }
    const untouched = (await stored("T-5")) as StoredOutcome;
    assert.equal(untouched.updated_at, before_["T-5"]?.updated_at, "the new model's outcome is not sent");
  });

  it("keeps the outcome a person reviewed as it was", async () => {
    const reviewed = (await stored("T-2")) as StoredOutcome;
    assert.equal(reviewed.status, "reviewed");
    assert.equal(reviewed.updated_at, before_["T-2"]?.updated_at);
    assert.equal(reviewed.model_sha256, oldSha);
    assert.equal(reviewed.review?.by, "alice");
    assert.equal(result.code, 1, "a kept review is reported");
    assert.match(result.err, /kept: ticket-routing\/T-2: a person reviewed it/);
    assert.deepEqual(diff.kept_reviewed, ["T-2"]);
  });

  it("writes a diff listing each status and answer change (id, old, new), and prints its summary", async () => {
    const expectedStatus: Array<{ id: string; old: string; new: string }> = [];
    const expectedQuestions: RedecideDiff["questions"] = {};
    let answerChanged = 0;
    for (const id of ["T-1", "T-3", "T-4"]) {
      const old = before_[id] as StoredOutcome;
      const now = (await stored(id)) as StoredOutcome;
      if (old.status !== now.status) expectedStatus.push({ id, old: old.status, new: now.status });
      let changed = false;
      for (const qid of Object.keys(old.answers ?? {}).sort()) {
        const was = old.answers?.[qid]?.answer;
        const is = now.answers?.[qid]?.answer;
        if (String(was) === String(is)) continue;
        changed = true;
        const question = expectedQuestions[qid] ?? { changed: 0, changes: [] };
        question.changed += 1;
        question.changes.push({ id, old: was as string, new: is as string });
        expectedQuestions[qid] = question;
      }
      if (changed) answerChanged += 1;
    }
    // Random weights of two seeds: the new model answers some question differently, so the diff
    // has changes to list (and the comparison above is not of two empty lists).
    assert.ok(answerChanged > 0, `no answer changed: ${result.out}`);
    assert.equal(diff.sent, 3);
    assert.equal(diff.decided_again, 3);
    assert.deepEqual(diff.pending, []);
    assert.deepEqual(diff.selected, { model_sha256: oldSha });
    assert.equal(diff.decided_by?.model_sha256, newSha);
    assert.deepEqual(diff.status_changes, expectedStatus);
    assert.equal(diff.status_changed, expectedStatus.length);
    assert.deepEqual(diff.questions, expectedQuestions);
    assert.equal(diff.answer_changed, answerChanged);
    assert.match(
      result.out,
      new RegExp(
        `decided again 3 of 3 sent \\(model_sha256 ${oldSha}\\); ${expectedStatus.length} changed status, ${answerChanged} changed an answer`,
      ),
    );
  });
});
