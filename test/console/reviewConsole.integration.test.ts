/**
 * The review console in a real browser against `decisions up`: the queue lists what waits, a
 * person reviews an item with the keyboard alone and finds it reviewed in DynamoDB Local, a
 * partial review keeps the item waiting for the question left open, an audit item is marked and
 * reviewable, a change made meanwhile is shown and not overwritten, and axe finds no serious
 * accessibility violation. With DECISIONS_SCREENSHOTS=docs/images it writes the docs' pictures
 * (queue.png, item.png, stats.png).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { browserSkipReason, launchChromium } from "../support/launchChromium.js";
import { startUpProcess, type UpProcess } from "../support/startUpProcess.js";

const skip = browserSkipReason();
const REPO_ROOT = new URL("../../", import.meta.url).pathname;
const credentials = { accessKeyId: "local", secretAccessKey: "local" };
/** Where screenshots go: docs/images when regenerating the docs' pictures, else a scratch folder. */
const SHOTS = process.env.DECISIONS_SCREENSHOTS ?? join(REPO_ROOT, ".cache", "console-screenshots");

describe("the review console in Chromium", { skip }, () => {
  let up: UpProcess;
  let browser: Browser;
  let table: DynamoDBDocumentClient;
  let reviewUrl: string;
  let policyDir: string;
  let sqs: SQSClient;
  let tickets: { id: string }[];

  before(async () => {
    policyDir = await auditedPolicies();
    up = await startUpProcess(["--threads", "2", "--policies", policyDir]);
    reviewUrl = up.info.review_url ?? "";
    assert.match(reviewUrl, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    table = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: "us-east-1", endpoint: up.info.dynamodb_endpoint, credentials }),
    );
    sqs = new SQSClient({
      region: "us-east-1",
      endpoint: up.info.sqs_endpoint,
      credentials,
      useQueueUrlAsEndpoint: false,
    });
    tickets = readFileSync(join(REPO_ROOT, "events", "work-items", "tickets.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .flatMap((line) => {
        try {
          const item = JSON.parse(line) as { id: string };
          return [{ ...item, id: `console-${item.id}` }];
        } catch {
          return []; // the sample file holds a deliberately broken line
        }
      })
      .slice(0, 6);
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: up.info.queue_url,
        Entries: tickets.map((item, index) => ({ Id: String(index), MessageBody: JSON.stringify(item) })),
      }),
    );
    await waitForQueue(`${reviewUrl}api/queue?limit=100`, 4);
    await waitForOutcomes(table, up.info.table ?? "", tickets.length);
    browser = await launchChromium();
    await mkdir(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    table?.destroy();
    sqs?.destroy();
    if (up !== undefined) {
      up.child.kill("SIGTERM");
      await new Promise((resolve) => up.child.once("exit", resolve));
    }
    if (policyDir !== undefined) await rm(policyDir, { recursive: true, force: true });
  });

  it("lists the waiting items and reviews one with the keyboard alone; DynamoDB Local has it reviewed", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(reviewUrl);
    await page.locator("tbody tr").first().waitFor();
    assert.ok((await page.locator("tbody tr").count()) >= 4);
    await page.locator('[data-field="waiting"]', { hasText: "wait for review" }).waitFor();
    await page.screenshot({ path: join(SHOTS, "queue.png") });
    await page.locator("#reviewer").fill("alice");
    await page.locator("#reviewer").blur();

    await page.keyboard.press("j");
    await page.keyboard.press("k");
    const firstId = await page.locator("tr.selected").getAttribute("data-id");
    await page.keyboard.press("Enter");
    await page.waitForURL(/#\/item\//);
    const [policy, id] = itemOf(page);
    assert.equal(id, firstId);
    await page.locator(".question").first().waitFor();
    const open = await page
      .locator(".question.active, .question")
      .evaluateAll((nodes) =>
        nodes
          .filter((node) => node.querySelector("button.choice"))
          .map((node) => node.getAttribute("data-question")),
      );
    assert.ok(open.length > 0, "the item has questions to answer");
    await page.screenshot({ path: join(SHOTS, "item.png") });
    for (const _ of open) await page.keyboard.press("1");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => !url.hash.includes(encodeURIComponent(id)));

    const stored = (await table.send(new GetCommand({ TableName: up.info.table, Key: { policy, id } }))).Item;
    assert.equal(stored?.status, "reviewed");
    assert.equal(stored?.review?.by, "alice");
    for (const qid of open) assert.equal(stored?.answers?.[qid as string]?.source, "human", String(qid));
    await page.close();
  });

  it("shows a change made meanwhile instead of overwriting it", async () => {
    const page = await browser.newPage();
    await page.goto(reviewUrl);
    await page.locator("#reviewer").fill("carol");
    await page.locator("#reviewer").blur();
    await page.locator("tbody tr").first().waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL(/#\/item\//);
    const [policy, id] = itemOf(page);
    await page.locator(".question").first().waitFor();
    const view = (await (
      await fetch(`${reviewUrl}api/items/${policy}/${encodeURIComponent(id)}`)
    ).json()) as {
      outcome: { updated_at: string };
      open_questions: string[];
      policy: { questions: { id: string; options: { label: string }[] }[] };
    };
    const answers = Object.fromEntries(
      view.open_questions.map((qid) => [
        qid,
        view.policy.questions.find((q) => q.id === qid)?.options[0]?.label ?? "",
      ]),
    );
    const meanwhile = await fetch(`${reviewUrl}api/items/${policy}/${encodeURIComponent(id)}/review`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-reviewer": "bob" },
      body: JSON.stringify({ answers, expect_updated_at: view.outcome.updated_at }),
    });
    assert.equal(meanwhile.status, 200);

    for (const _ of view.open_questions) await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    const alert = page.locator(".conflict");
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? "", /changed this item while you looked at it \(bob\)/);
    const stored = (await table.send(new GetCommand({ TableName: up.info.table, Key: { policy, id } }))).Item;
    assert.equal(stored?.review?.by, "bob", "the first review stands");
    for (const [qid, label] of Object.entries(answers)) {
      assert.equal(String(stored?.answers?.[qid]?.answer), label, `bob's ${qid} is not overwritten`);
    }
    assert.equal(stored?.reviews?.length, 1, "carol's review was not recorded");
    await page.locator(".conflict button").click();
    await page.locator(".conflict").waitFor({ state: "detached" });
    assert.match((await page.locator("h2").textContent()) ?? "", /reviewed/, "the current version shows");
    await page.close();
  });

  it("saves a partial review: one of two open questions answered, the item stays waiting for the other", async () => {
    const [policy, id, open] = await itemWithOpenQuestions(reviewUrl, 2);
    const page = await browser.newPage();
    await page.goto(reviewUrl);
    await page.locator("#reviewer").fill("dana");
    await page.locator("#reviewer").blur();
    await page.goto(`${reviewUrl}#/item/${encodeURIComponent(policy)}/${encodeURIComponent(id)}`);
    await page.locator(`.question.active[data-question="${open[0]}"]`).waitFor();

    await page.keyboard.press("1");
    await page.keyboard.press("Enter");
    const partial = page.locator(".partial");
    await partial.waitFor();
    assert.match((await partial.textContent()) ?? "", new RegExp(`${open[1]}.*stays in the queue`));
    assert.equal(await page.locator("button.primary").textContent(), "Save partial review");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => !url.hash.includes(encodeURIComponent(id)));

    const stored = (await table.send(new GetCommand({ TableName: up.info.table, Key: { policy, id } }))).Item;
    assert.equal(stored?.status, "fallback", "a partial review keeps the status");
    assert.equal(stored?.answers?.[open[0] as string]?.source, "human");
    assert.equal(stored?.answers?.[open[1] as string]?.source, "fallback");
    assert.equal(stored?.reviews?.at(-1)?.by, "dana");
    assert.ok((stored?.reviews?.at(-1)?.remaining ?? []).includes(open[1]));
    const queue = (await (await fetch(`${reviewUrl}api/queue?limit=100`)).json()) as {
      items: { id: string }[];
    };
    assert.ok(
      queue.items.some((item) => item.id === id),
      "the item still waits in the queue",
    );
    await page.close();
  });

  it("shows an audit item marked as such, and reviews it: its model answers are asked, its status becomes reviewed", async () => {
    // The audited policy's threshold 0 lets the model decide every question; its audit_rate 1 sends
    // each decided item to review as an audit item (the decide function marks it). Sent here, so the
    // tests before, which review the newest items, leave them waiting.
    const audited = tickets
      .slice(0, 2)
      .map((item) => ({ ...item, id: item.id.replace("console-", "audit-"), policy: AUDITED }));
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: up.info.queue_url,
        Entries: audited.map((item, index) => ({ Id: String(index), MessageBody: JSON.stringify(item) })),
      }),
    );
    await waitForOutcomes(table, up.info.table ?? "", tickets.length + audited.length);
    const outcomes = await scanOutcomes(table, up.info.table ?? "");
    const item = outcomes.find((outcome) => outcome.policy === AUDITED && outcome.status === "decided");
    assert.ok(
      item !== undefined,
      `a decided outcome of ${AUDITED} among ${outcomes.map((o) => `${o.policy}:${o.status}`).join(", ")}`,
    );
    assert.equal(item.audit?.rate, 1, "the decide function marked it as an audit item");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(reviewUrl);
    await page.locator("#reviewer").fill("erin");
    await page.locator("#reviewer").blur();
    const row = page.locator(`tr[data-id="${item.id}"]`);
    await row.waitFor();
    assert.match((await row.locator(".badge.audit").textContent()) ?? "", /audit/);

    await row.locator("a").click();
    // The item page's own heading: the queue, still shown until the page changes, has a badge per audit row.
    await page.locator("h2 .badge.audit").waitFor();
    assert.match((await page.locator("h2").textContent()) ?? "", /audit item/);
    const open = await page
      .locator(".question")
      .evaluateAll((nodes) =>
        nodes
          .filter((node) => node.querySelector("button.choice"))
          .map((node) => node.getAttribute("data-question")),
      );
    const modelAnswered = Object.entries(item.answers ?? {})
      .filter(([, answer]) => answer.source === "model")
      .map(([qid]) => qid);
    assert.deepEqual([...open].sort(), [...modelAnswered].sort(), "every model answer is asked");
    for (const _ of open) await page.keyboard.press("1");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => !url.hash.includes(encodeURIComponent(item.id)));

    const stored = (
      await table.send(
        new GetCommand({ TableName: up.info.table, Key: { policy: item.policy, id: item.id } }),
      )
    ).Item;
    assert.equal(stored?.status, "reviewed");
    assert.equal(stored?.review?.by, "erin");
    assert.deepEqual(stored?.audit, item.audit, "the audit mark stays for calibrate");
    await page.close();
  });

  it("fits a tablet held upright: no sideways scrolling on the queue or an item, and a tap picks an answer", async () => {
    const context = await browser.newContext({ viewport: { width: 768, height: 1024 }, hasTouch: true });
    const page = await context.newPage();
    const overflow = () => page.locator("html").evaluate((root) => root.scrollWidth - root.clientWidth);
    await page.goto(reviewUrl);
    // The page asks for the reviewer's name before the first answer.
    await page.locator("#reviewer").fill("gil");
    await page.locator("#reviewer").blur();
    const row = page.locator("tbody tr").first();
    await row.waitFor();
    assert.equal(await overflow(), 0, "the queue is as wide as the screen");
    await row.locator("a").tap();
    const choice = page.locator(".question button.choice").first();
    await choice.waitFor();
    assert.equal(await overflow(), 0, "the item is as wide as the screen");
    await choice.tap();
    assert.equal(await choice.getAttribute("aria-checked"), "true", "the tapped answer is picked");
    await context.close();
  });

  it("has no serious or critical accessibility violations on the queue, an item and a policy's pictures", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(reviewUrl);
    await page.locator("tbody tr").first().waitFor();
    await assertAccessible(page, "queue");
    await page.keyboard.press("Enter");
    await page.waitForURL(/#\/item\//);
    await page.locator(".question").first().waitFor();
    await assertAccessible(page, "item");
    await page.goto(`${reviewUrl}#/stats/ticket-routing`);
    await page.locator("figure svg").first().waitFor();
    await page.locator("section.drift figure svg").first().waitFor();
    await page.screenshot({ path: join(SHOTS, "stats.png"), fullPage: true });
    await assertAccessible(page, "stats");
    await context.close();
  });
});

interface ScannedOutcome {
  policy: string;
  id: string;
  status: string;
  answers?: Record<string, { source: string }>;
  audit?: { rate: number; draw: number };
}

/** The copy of ticket-routing that decides every question (threshold 0) and audits every decision. */
const AUDITED = "audited-routing";

/** A policy folder: this repository's policies and {@link AUDITED}. */
async function auditedPolicies(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "console-policies-"));
  await cp(join(REPO_ROOT, "policies"), dir, { recursive: true });
  const routing = await readFile(join(dir, "ticket-routing.yaml"), "utf8");
  const audited = routing
    .replace(/^name: ticket-routing$/m, `name: ${AUDITED}`)
    .replace(/^(\s+threshold:) [\d.]+$/gm, "$1 0")
    .concat("\naudit_rate: 1\n");
  assert.notEqual(audited.match(/threshold: 0$/gm)?.length ?? 0, 0, "the copy's thresholds are 0");
  await writeFile(join(dir, `${AUDITED}.yaml`), audited);
  return dir;
}

/** Every outcome in the table (failure records, under their own keys, left out). */
async function scanOutcomes(table: DynamoDBDocumentClient, tableName: string): Promise<ScannedOutcome[]> {
  const items: ScannedOutcome[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as ScannedOutcome[]));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return items.filter((item) => !item.policy.startsWith("_"));
}

/** Waits until the table holds `count` outcomes, as long as the stack keeps deciding. */
async function waitForOutcomes(
  table: DynamoDBDocumentClient,
  tableName: string,
  count: number,
): Promise<void> {
  let seen = -1;
  let idleRounds = 0;
  while (idleRounds < 120) {
    const outcomes = await scanOutcomes(table, tableName);
    if (outcomes.length >= count) return;
    if (outcomes.length > seen) {
      seen = outcomes.length;
      idleRounds = 0;
    } else idleRounds += 1;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the table stopped at ${seen} outcomes (waiting for ${count})`);
}

/** A waiting item with at least `count` open questions: its policy, id and open questions. */
async function itemWithOpenQuestions(reviewUrl: string, count: number): Promise<[string, string, string[]]> {
  const queue = (await (await fetch(`${reviewUrl}api/queue?limit=100`)).json()) as {
    items: { policy: string; id: string }[];
  };
  for (const { policy, id } of queue.items) {
    const view = (await (
      await fetch(`${reviewUrl}api/items/${policy}/${encodeURIComponent(id)}`)
    ).json()) as {
      open_questions: string[];
    };
    if (view.open_questions.length >= count) return [policy, id, view.open_questions];
  }
  throw new Error(`no waiting item has ${count} open questions`);
}

function itemOf(page: Page): [string, string] {
  const [, policy = "", id = ""] = new URL(page.url()).hash.match(/^#\/item\/([^/]+)\/(.+)$/) ?? [];
  return [decodeURIComponent(policy), decodeURIComponent(id)];
}

async function assertAccessible(page: Page, name: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`),
    [],
    `${name} page accessibility`,
  );
}

/** Waits until the queue lists `count` items, as long as the stack keeps deciding (bounded by progress). */
async function waitForQueue(url: string, count: number): Promise<void> {
  let seen = -1;
  let idleRounds = 0;
  while (idleRounds < 120) {
    const answer = (await (await fetch(url)).json()) as { items: unknown[] };
    if (answer.items.length >= count) return;
    if (answer.items.length > seen) {
      seen = answer.items.length;
      idleRounds = 0;
    } else idleRounds += 1;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the review queue stopped at ${seen} items (waiting for ${count})`);
}
