/**
 * The review console's queue orders in Chromium against the local console server on DynamoDB
 * Local: the Order menu offers newest first, margin and entropy; choosing one lists the items in
 * that order (the nearest to its threshold, the most spread distribution first), shows each row's
 * worth and the window the order was computed over; "Load more" continues the order without
 * listing an item twice; and opening an item from an ordered queue works.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { StoredOutcome } from "../../core/outcomes/index.js";
import type { ReviewServer } from "../../local/services/startReviewServer.js";
import { browserSkipReason, launchChromium } from "../support/launchChromium.js";
import { type ReviewConsoleTables, startReviewConsoleTables } from "../support/startReviewConsoleTables.js";
import { waitingOutcome } from "../support/waitingOutcome.js";

const skip = browserSkipReason();
const TABLE = "outcomes";
/** Items waiting: the console shows 25 a page, so "Load more" is needed for the rest. */
const COUNT = 30;

/**
 * Item `i` (newer as i grows): its `queue` answer at probability p_i of `triage` under the 0.55
 * threshold, with the rest of the mass on `billing` alone (entropy falls as p_i moves from 0.5).
 */
function item(index: number): StoredOutcome {
  const outcome = waitingOutcome(
    "ticket-routing",
    `o-${String(index).padStart(2, "0")}`,
    new Date(Date.UTC(2026, 11, 1, 10, 0, index)).toISOString(),
  );
  // Spread over [0.2, 0.54] so that margins (0.55 − p) and entropies are distinct.
  const p = 0.2 + (((index * 11) % COUNT) / COUNT) * 0.34;
  const queue = outcome.answers?.queue;
  if (queue === undefined) throw new Error("waitingOutcome gives a queue answer");
  return {
    ...outcome,
    answers: { queue: { ...queue, probability: p, distribution: { triage: p, billing: 1 - p } } },
  };
}

async function rowIds(page: Page): Promise<string[]> {
  return page.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id") ?? ""));
}

describe("the review console's queue orders in Chromium (DynamoDB Local)", { skip }, () => {
  let local: ReviewConsoleTables;
  let server: ReviewServer;
  let browser: Browser;
  const outcomes = Array.from({ length: COUNT }, (_, index) => item(index));

  before(async () => {
    local = await startReviewConsoleTables();
    ({ server } = await local.serve(outcomes, { table: TABLE }));
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await local?.stop();
  });

  /** The ids in the order `key` sorts them (ascending), ties never occur here. */
  const expectedBy = (key: (outcome: StoredOutcome) => number) =>
    [...outcomes].sort((a, b) => key(a) - key(b)).map((outcome) => outcome.id);
  const probability = (outcome: StoredOutcome) => outcome.answers?.queue?.probability ?? 0;

  for (const [order, expected] of [
    ["newest", [...outcomes].reverse().map((outcome) => outcome.id)],
    ["margin", expectedBy((outcome) => 0.55 - probability(outcome))],
    // Two labels offered by the question's distribution here; the one nearest 0.5 is the least sure.
    ["entropy", expectedBy((outcome) => Math.abs(probability(outcome) - 0.5))],
  ] as const) {
    it(`lists the queue ${order === "newest" ? "newest first" : `by ${order}`} and continues it with Load more`, async () => {
      const page = await browser.newPage();
      try {
        await page.goto(server.url);
        await page.locator("tbody tr").first().waitFor();
        const menu = page.locator('select[name="order"]');
        assert.deepEqual(
          await menu
            .locator("option")
            .evaluateAll((options) => options.map((option) => option.getAttribute("value") ?? "")),
          ["newest", "margin", "entropy"],
          "the menu offers the three orders",
        );
        if (order !== "newest") {
          await menu.selectOption(order);
          await page.locator(".order-window").waitFor();
          // The rows are replaced once the ordered page arrives.
          await page.locator(`tbody tr[data-id="${expected[0]}"]`).first().waitFor();
          await page.locator("tbody tr").first().locator("td.worth").waitFor();
          assert.match(
            (await page.locator(".order-window").textContent()) ?? "",
            new RegExp(`Ordered over all ${COUNT} waiting items`),
          );
          assert.equal(await page.locator("tbody tr td.worth").count(), 25, "each row shows its worth");
        }
        assert.deepEqual(await rowIds(page), expected.slice(0, 25), "the first page in order");
        await page.getByRole("button", { name: "Load more" }).click();
        await page
          .locator("tbody tr")
          .nth(COUNT - 1)
          .waitFor();
        const all = await rowIds(page);
        assert.deepEqual(all, [...expected], "Load more continues the order; every item once");
        assert.equal(await page.getByRole("button", { name: "Load more" }).count(), 0, "nothing left");

        await page.locator(`tr[data-id="${expected[0]}"] a`).click();
        await page.locator(".question").first().waitFor();
        assert.match((await page.locator("h2").first().textContent()) ?? "", new RegExp(expected[0] ?? ""));
      } finally {
        await page.close();
      }
    });
  }
});
