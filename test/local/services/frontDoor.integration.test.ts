/**
 * The front door on `decisions up` (the generated demo model), as a webhook sender uses it: the
 * issue's "done means" scaled down — 20 distinct items, 3 of them posted twice under the same
 * Idempotency-Key, 2 invalid, 2 with a bad signature, and one accepted request replayed with a
 * timestamp older than the tolerance — gives 16 outcomes, each exactly once and each decided from
 * the message the first answer named; 400s name the fields, 401s say why.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { Webhook } from "standardwebhooks";
import { createSubmitCommand } from "../../../cli/commands/submitCommand.js";
import type { AcceptedAnswer, IntakeErrorAnswer } from "../../../contract/intake/index.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

const REPO_ROOT = new URL("../../../", import.meta.url).pathname;
const SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(32, 6).toString("base64")}`;
const credentials = { accessKeyId: "local", secretAccessKey: "local" };

interface Posted {
  status: number;
  replayed: string | null;
  body: unknown;
  /** The body's text as answered. */
  text: string;
}

/** Posts `body` to the front door signed with `secret` at `at` (seconds since 1970). */
async function post(
  url: string,
  body: string,
  options: { secret?: string; at?: number; id?: string; key?: string } = {},
): Promise<Posted> {
  const at = options.at ?? Math.floor(Date.now() / 1000);
  const id = options.id ?? `msg_${crypto.randomUUID()}`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(at),
    "webhook-signature": new Webhook(options.secret ?? SECRET).sign(id, new Date(at * 1000), body),
    ...(options.key === undefined ? {} : { "idempotency-key": options.key }),
  };
  const answer = await fetch(url, { method: "POST", headers, body });
  const text = await answer.text();
  return {
    status: answer.status,
    replayed: answer.headers.get("idempotent-replayed"),
    body: JSON.parse(text),
    text,
  };
}

describe("the front door on decisions up", () => {
  let up: UpProcess;
  let table: DynamoDBDocumentClient;

  before(async () => {
    up = await startUpProcess(["--threads", "2", "--webhook-secret", SECRET]);
    table = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: "us-east-1", endpoint: up.info.dynamodb_endpoint, credentials }),
    );
  });

  after(async () => {
    table?.destroy();
    if (up !== undefined) {
      up.child.kill("SIGTERM");
      await new Promise((resolve) => up.child.once("exit", resolve));
    }
  });

  it("20 items, 3 posted twice under one key, 2 invalid, 2 badly signed, 1 stale replay: 16 outcomes, each once", async () => {
    const submitUrl = up.info.submit_url ?? "";
    assert.match(submitUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1\/webhooks\/work-items$/);
    const tickets = readFileSync(`${REPO_ROOT}events/work-items/tickets.jsonl`, "utf8")
      .split("\n")
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return []; // the sample file holds a deliberately broken line
        }
      });
    const items: Record<string, unknown>[] = Array.from({ length: 20 }, (_, index) => ({
      ...tickets[index % tickets.length],
      id: `fd-${index}`,
    }));
    const bodies = items.map((item) => JSON.stringify(item));

    // 16 valid items, each its own signed request; items 0–2 under an Idempotency-Key.
    const first = new Map<number, Posted>();
    for (let index = 0; index < 16; index += 1) {
      first.set(index, await post(submitUrl, bodies[index] ?? "", index < 3 ? { key: `key-${index}` } : {}));
    }
    // Items 0–2 again under their keys (a new webhook-id and signature, as a retrying sender makes).
    const retries = await Promise.all(
      [0, 1, 2].map((index) => post(submitUrl, bodies[index] ?? "", { key: `key-${index}` })),
    );
    // Two invalid items: no state; a misspelt field.
    const { state: _, ...stateless } = items[16] ?? {};
    const invalid = [
      await post(submitUrl, JSON.stringify(stateless)),
      await post(submitUrl, JSON.stringify({ ...items[17], fact: { tier: "gold" } })),
    ];
    // Two signed with another secret.
    const badlySigned = [
      await post(submitUrl, bodies[18] ?? "", { secret: OTHER_SECRET }),
      await post(submitUrl, bodies[19] ?? "", { secret: OTHER_SECRET }),
    ];
    // Item 3's request replayed as captured, its timestamp now older than the 300 s tolerance.
    const stale = await post(submitUrl, bodies[3] ?? "", { at: Math.floor(Date.now() / 1000) - 301 - 5 });

    for (const [index, answer] of first)
      assert.equal(answer.status, 202, `item ${index}: ${JSON.stringify(answer.body)}`);
    retries.forEach((answer, index) => {
      assert.equal(answer.status, 202);
      assert.equal(answer.replayed, "true");
      assert.deepEqual(answer.body, first.get(index)?.body, "a retry under the key gets the first answer");
      assert.equal(answer.text, first.get(index)?.text, "the same body: its keys in the same order");
    });
    assert.deepEqual(
      invalid.map((answer) => [
        answer.status,
        (answer.body as IntakeErrorAnswer).problems?.map((problem) => problem.field),
      ]),
      [
        [400, ["state"]],
        [400, ["(item)"]],
      ],
    );
    assert.match((invalid[1]?.body as IntakeErrorAnswer | undefined)?.problems?.[0]?.rule ?? "", /"fact"/);
    assert.deepEqual(
      [...badlySigned, stale].map((answer) => [answer.status, (answer.body as IntakeErrorAnswer).reason]),
      [
        [401, "bad_signature"],
        [401, "bad_signature"],
        [401, "stale_timestamp"],
      ],
    );

    const outcomes = await waitForOutcomes(table, up.info.table ?? "", 16);
    const ids = outcomes.map((outcome) => outcome.id).sort();
    assert.deepEqual(
      ids,
      Array.from({ length: 16 }, (_, index) => `fd-${index}`).sort(),
      "16 outcomes, each once",
    );
    for (const outcome of outcomes) {
      const index = Number(outcome.id.slice(3));
      const accepted = (first.get(index)?.body as AcceptedAnswer | undefined)?.accepted[0];
      assert.equal(
        outcome.source?.message_id,
        accepted?.message_id,
        `${outcome.id} was decided from the first answer's message`,
      );
      assert.equal(outcome.source?.receive_count, 1, `${outcome.id} was received once`);
    }
  });

  it("decisions submit --url posts a file's items signed, reports the refused line and sends the rest", async () => {
    const folder = await mkdtemp(join(tmpdir(), "front-door-submit-"));
    const file = join(folder, "items.jsonl");
    const lines = [
      { id: "fd-submit-1", policy: "ticket-routing", state: "My invoice is wrong" },
      { id: "fd-submit-2", policy: "ticket-routing" },
      { id: "fd-submit-3", policy: "ticket-routing", state: "Cannot log in" },
    ];
    await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const stdout: string[] = [];
    const stderr: string[] = [];
    const submit = createSubmitCommand({
      stdout: { write: (text: string) => stdout.push(text) > 0 },
      stderr: { write: (text: string) => stderr.push(text) > 0 },
    });

    const code = await submit.run([file, "--url", up.info.submit_url ?? "", "--webhook-secret", SECRET]);
    await rm(folder, { recursive: true, force: true });

    assert.equal(code, 1, "one line was refused");
    assert.match(
      stdout.join(""),
      /^accepted 2 of 3 item\(s\) at http:\/\/127\.0\.0\.1:\d+\/v1\/webhooks\/work-items \(2 to the interactive lane\)/,
    );
    assert.match(stderr.join(""), /line 2 \(id fd-submit-2\): 400 invalid_items: state: /);
    const outcomes = await waitForOutcomes(table, up.info.table ?? "", 18);
    assert.deepEqual(
      outcomes
        .filter((outcome) => outcome.id.startsWith("fd-submit-"))
        .map((outcome) => outcome.id)
        .sort(),
      ["fd-submit-1", "fd-submit-3"],
    );
  });

  it("serves the work item's JSON Schema", async () => {
    const url = new URL("/v1/schemas/work-item.json", up.info.submit_url ?? "");

    const answer = await fetch(url);

    assert.equal(answer.status, 200);
    assert.deepEqual(((await answer.json()) as { required: string[] }).required, ["id", "policy", "state"]);
  });
});

interface ScannedOutcome {
  policy: string;
  id: string;
  source?: { message_id?: string; receive_count?: number };
}

/** The front door's outcomes (ids `fd-…`), once `count` are there, as long as the stack keeps deciding. */
async function waitForOutcomes(
  table: DynamoDBDocumentClient,
  tableName: string,
  count: number,
): Promise<ScannedOutcome[]> {
  let seen = -1;
  let idleRounds = 0;
  while (idleRounds < 120) {
    const outcomes: ScannedOutcome[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await table.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
      outcomes.push(...((page.Items ?? []) as ScannedOutcome[]));
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    const ours = outcomes.filter(
      (outcome) => !outcome.policy.startsWith("_") && outcome.id.startsWith("fd-"),
    );
    if (ours.length >= count) return ours;
    if (ours.length > seen) {
      seen = ours.length;
      idleRounds = 0;
    } else idleRounds += 1;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the table stopped at ${seen} outcomes (waiting for ${count})`);
}
