/**
 * The review console in a real browser against `decisions up`: the queue lists what waits, a
 * person reviews an item with the keyboard alone and finds it reviewed in DynamoDB Local, a change
 * made meanwhile is shown and not overwritten, and axe finds no serious accessibility violation.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { browserSkipReason, launchChromium } from "../support/launchChromium.js";
import { startUpProcess, type UpProcess } from "../support/startUpProcess.js";

const skip = browserSkipReason();
const REPO_ROOT = new URL("../../", import.meta.url).pathname;
const credentials = { accessKeyId: "local", secretAccessKey: "local" };
/** Where screenshots go: docs/console when regenerating the docs' pictures, else a scratch folder. */
const SHOTS = process.env.DECISIONS_SCREENSHOTS ?? join(REPO_ROOT, ".cache", "console-screenshots");

describe("the review console in Chromium", { skip }, () => {
  let up: UpProcess;
  let browser: Browser;
  let table: DynamoDBDocumentClient;
  let reviewUrl: string;

  before(async () => {
    up = await startUpProcess(["--threads", "2"]);
    reviewUrl = up.info.review_url ?? "";
    assert.match(reviewUrl, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    table = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: "us-east-1", endpoint: up.info.dynamodb_endpoint, credentials }),
    );
    const sqs = new SQSClient({
      region: "us-east-1",
      endpoint: up.info.sqs_endpoint,
      credentials,
      useQueueUrlAsEndpoint: false,
    });
    const tickets = readFileSync(join(REPO_ROOT, "events", "work-items", "tickets.jsonl"), "utf8")
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
    sqs.destroy();
    await waitForQueue(`${reviewUrl}api/queue?limit=100`, 4);
    browser = await launchChromium();
    await mkdir(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    table?.destroy();
    if (up !== undefined) {
      up.child.kill("SIGTERM");
      await new Promise((resolve) => up.child.once("exit", resolve));
    }
  });

  it("lists the waiting items and reviews one with the keyboard alone; DynamoDB Local has it reviewed", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(reviewUrl);
    await page.locator("tbody tr").first().waitFor();
    assert.ok((await page.locator("tbody tr").count()) >= 4);
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
    await page.close();
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
    await page.screenshot({ path: join(SHOTS, "stats.png"), fullPage: true });
    await assertAccessible(page, "stats");
    await context.close();
  });
});

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
