/**
 * Amending a review in the console's page in Chromium against the local console server on DynamoDB
 * Local: a reviewed item offers Amend, which sends `amend: true` and is stored as an amendment
 * beside the first review; a 409 `amend_required` tells that changing someone's review needs Amend
 * (not that the item changed meanwhile) and offers it; a 413 `review_history_full` (only answers
 * that stand can fill the history) shows the server's text.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Browser, Page } from "playwright-core";
import type { ReviewServer } from "../../local/services/startReviewServer.js";
import { browserSkipReason, launchChromium } from "../support/launchChromium.js";
import { type ReviewConsoleTables, startReviewConsoleTables } from "../support/startReviewConsoleTables.js";
import { waitingOutcome } from "../support/waitingOutcome.js";

const skip = browserSkipReason();
const POLICY = "ticket-routing";
const TABLE = "outcomes";

describe("amending a review in the console (Chromium, DynamoDB Local)", { skip }, () => {
  let local: ReviewConsoleTables;
  let doc: DynamoDBDocumentClient;
  let server: ReviewServer;
  let browser: Browser;
  let items = 0;

  const stored = async (id: string) =>
    (await doc.send(new GetCommand({ TableName: TABLE, Key: { policy: POLICY, id } }))).Item;

  /** Posts a review through the API as `by`; the answer's status and body. */
  const review = async (id: string, by: string, queue: string, amend = false) => {
    const current = await stored(id);
    const answer = await fetch(new URL(`api/items/${POLICY}/${encodeURIComponent(id)}/review`, server.url), {
      method: "POST",
      headers: { "content-type": "application/json", "x-reviewer": by },
      body: JSON.stringify({
        answers: { queue },
        expect_updated_at: current?.updated_at,
        ...(amend ? { amend: true } : {}),
      }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };

  /** An item alice reviewed (queue = billing). */
  const reviewedItem = async (): Promise<string> => {
    items += 1;
    const id = `amend-${items}`;
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: waitingOutcome(POLICY, id, `2026-12-01T10:00:${String(items).padStart(2, "0")}.000Z`),
      }),
    );
    const first = await review(id, "alice", "billing");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal((await stored(id))?.status, "reviewed");
    return id;
  };

  /** The item's page, with `bob` as the reviewer. */
  const openAsBob = async (id: string): Promise<Page> => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.locator("#reviewer").fill("bob");
    await page.locator("#reviewer").blur();
    await page.goto(`${server.url}#/item/${POLICY}/${encodeURIComponent(id)}`);
    await page.locator(".question").first().waitFor();
    return page;
  };

  /** Picks `sales` for queue in amend mode and saves. */
  const amendQueueToSales = async (page: Page) => {
    await page.locator('.question[data-question="queue"] button.choice', { hasText: "sales" }).click();
    await page.getByRole("button", { name: "Save amendment" }).click();
  };

  before(async () => {
    local = await startReviewConsoleTables();
    doc = local.doc;
    ({ server } = await local.serve([], { table: TABLE }));
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await local?.stop();
  });

  it("amends a reviewed item: any question is answerable, and the change is stored as an amendment beside the first review", async () => {
    const id = await reviewedItem();
    const page = await openAsBob(id);
    assert.equal(
      await page.locator("button.choice").count(),
      0,
      "a reviewed item offers no answer before Amend",
    );

    await page.getByRole("button", { name: "Amend", exact: true }).click();
    await amendQueueToSales(page);
    await page.locator(".notice").waitFor();

    const item = await stored(id);
    assert.equal(item?.answers?.queue?.answer, "sales");
    assert.equal(item?.review?.by, "bob");
    assert.equal(item?.review?.amendment, true);
    assert.deepEqual(
      ((item?.reviews ?? []) as { by: string }[]).map((entry) => entry.by),
      ["alice", "bob"],
    );
    assert.match((await page.locator(".notice").textContent()) ?? "", /Amendment saved: queue/);
    await page.close();
  });

  it("says that changing someone's review needs Amend on a 409 amend_required, unlike a stale item, and offers it", async () => {
    const id = await reviewedItem();
    const page = await openAsBob(id);
    await page.getByRole("button", { name: "Amend", exact: true }).click();
    // A client that leaves out `amend` (an older page): the server's own answer is shown.
    await page.route("**/review", (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}") as Record<string, unknown>;
      delete body.amend;
      return route.continue({ postData: JSON.stringify(body) });
    });

    await amendQueueToSales(page);
    const alert = page.locator(".amend-needed[role=alert]");
    await alert.waitFor();

    const text = (await alert.textContent()) ?? "";
    assert.match(text, /changing someone's review needs Amend/i);
    assert.doesNotMatch(text, /changed this item while you looked/);
    assert.equal((await stored(id))?.answers?.queue?.answer, "billing", "nothing saved");
    await page.unroute("**/review");
    await alert.getByRole("button", { name: "Amend" }).click();
    await page.getByRole("button", { name: "Save amendment" }).click();
    await page.locator(".notice").waitFor();
    assert.equal((await stored(id))?.answers?.queue?.answer, "sales");
    await page.close();
  });

  it("takes every new reviewer through the console's HTTP API, however many came before", async () => {
    const id = await reviewedItem();
    for (let round = 0; round < 30; round += 1) {
      const answer = await review(id, `r${round}`, round % 2 === 0 ? "legal" : "billing", true);
      assert.equal(answer.status, 200, `reviewer ${round + 2}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    const outcome = (await stored(id)) as { reviews: { by: string }[]; reviews_dropped?: number };
    assert.equal(outcome.reviews.length, 20);
    assert.equal(outcome.reviews.at(-1)?.by, "r29");
    assert.equal(outcome.reviews_dropped, 11);
  });

  it("shows the server's text when the review history is full (413)", async () => {
    const id = await reviewedItem();
    // Any number of reviewers fits (superseded entries go): only answers that stand can fill it,
    // here two entries under names of 33,000 characters, written straight to the table.
    const reviewed = (await stored(id)) as Record<string, unknown> & { reviews: Record<string, unknown>[] };
    const first = reviewed.reviews[0] as Record<string, unknown>;
    const standing = (by: string, answers: Record<string, unknown>, second: number) => ({
      ...first,
      by: by.repeat(33_000),
      at: `2026-12-01T12:00:0${second}.000Z`,
      answers,
      previous_answers: {},
    });
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...reviewed,
          reviews: [
            ...reviewed.reviews,
            standing("p", { priority: "P2" }, 1),
            standing("n", { needs_human: true }, 2),
          ],
        },
      }),
    );
    const full = await review(id, "carol", "sales", true);
    assert.equal(full.status, 413, JSON.stringify(full.body).slice(0, 300));
    assert.equal(full.body.reason, "review_history_full");
    const before = await stored(id);
    const page = await openAsBob(id);

    await page.getByRole("button", { name: "Amend", exact: true }).click();
    await amendQueueToSales(page);
    const alert = page.locator("main .error[role=alert]");
    await alert.waitFor();

    const shown = (await alert.textContent()) ?? "";
    // The server's text (its byte count depends on the reviewer's name, so up to the counts).
    const serverText = String(full?.body.error).split(" (this review")[0] ?? "";
    assert.match(serverText, /its review history is full$/);
    assert.ok(shown.startsWith(`Not saved: ${serverText} (this review would make it 3 entries`), shown);
    assert.equal((await stored(id))?.updated_at, before?.updated_at, "nothing saved");
    await page.close();
  });
});
