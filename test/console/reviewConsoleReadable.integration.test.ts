/**
 * The review console read without guessing, in Chromium at 1400 and 768 px against the local
 * console server on DynamoDB Local (issue 45): every option of batch-classification's 12-option
 * question and ticket-routing's 8-option `queue` is labelled whole and apart — measured from the
 * page's own layout, on the drift panel and on the item page; every chart has a title and axes
 * with their units, its tick labels apart; a reliability diagram with no reviewed item and a drift
 * distance without a baseline say why and when they appear; the keys follow the cards (on an item
 * whose first open question is the second card, `1` answers it and the focus stays there); the
 * option criteria show under each option; the reviewer's name is asked for first; the queue keeps
 * its filters and order in the address, counts what waits, names the questions of an unknown one
 * and offers Skip; the history words an amendment as `outcomes show` does; axe finds no violation.
 * The screenshots go to .cache/console-screenshots/readable-*.png.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { reviewHistoryEntries } from "../../contract/outcome/reviewHistory.js";
import { reviewsOf, type StoredOutcome } from "../../core/outcomes/index.js";
import { loadPolicies, type Policy } from "../../core/policy/index.js";
import { formatReviewHistory } from "../../operations/outcomes/index.js";
import { decidedOutcomes, policyOf, scenarioOutcome } from "../support/consoleScenario.js";
import { browserSkipReason, launchChromium } from "../support/launchChromium.js";
import { seedShadowScenario } from "../support/seedShadowScenario.js";
import { type ReviewConsoleTables, startReviewConsoleTables } from "../support/startReviewConsoleTables.js";

const skip = browserSkipReason();
const REPO_ROOT = new URL("../../", import.meta.url).pathname;
/** Where the screenshots go, to look at (never docs/images: the docs' pictures are reviewConsole.integration's). */
const SHOTS = join(REPO_ROOT, ".cache", "console-screenshots");
const TABLE = "outcomes";
const WIDTHS = [1400, 768] as const;
/** The console's clock: the drift window is the hour before, its baseline the 24 hours before that. */
const NOW = Date.parse("2026-12-03T12:00:00.000Z");
const HOUR = 3_600_000;
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

describe("the review console read without guessing (Chromium, DynamoDB Local)", { skip }, () => {
  let local: ReviewConsoleTables;
  let url: string;
  let browser: Browser;
  let routing: Policy;
  let batch: Policy;
  let incident: Policy;

  const stored = async (policy: string, id: string) =>
    (await local.doc.send(new GetCommand({ TableName: TABLE, Key: { policy, id } }))).Item as StoredOutcome;

  /** Posts a review through the API as `by`. */
  const review = async (
    policy: string,
    id: string,
    by: string,
    answers: Record<string, string>,
    amend = false,
  ) => {
    const answer = await fetch(new URL(`api/items/${policy}/${encodeURIComponent(id)}/review`, url), {
      method: "POST",
      headers: { "content-type": "application/json", "x-reviewer": by },
      body: JSON.stringify({
        answers,
        expect_updated_at: (await stored(policy, id)).updated_at,
        ...(amend ? { amend: true } : {}),
      }),
    });
    assert.equal(answer.status, 200, await answer.text());
  };

  /** A page with `name` as the local reviewer (kept in the browser's storage, as the header's field does). */
  const pageAs = async (width: number, name = "dana"): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    if (name !== "")
      await context.addInitScript(
        (reviewer) => localStorage.setItem("review-console.reviewer", reviewer),
        name,
      );
    return context.newPage();
  };

  before(async () => {
    local = await startReviewConsoleTables();
    const policies = await loadPolicies(join(REPO_ROOT, "policies"));
    routing = policyOf(policies, "ticket-routing");
    batch = policyOf(policies, "batch-classification");
    incident = policyOf(policies, "incident-priority");
    const window = { since: NOW - HOUR, until: NOW - 60_000 };
    const baseline = { since: NOW - 25 * HOUR, until: NOW - HOUR };
    const leanTechnical = { question: "queue", label: "technical_support", share: 0.4 };
    const outcomes = [
      ...decidedOutcomes(routing, "tr-b", 120, baseline),
      ...decidedOutcomes(routing, "tr-w", 60, window, leanTechnical, 2),
      ...decidedOutcomes(batch, "bc-b", 120, baseline),
      ...decidedOutcomes(batch, "bc-w", 60, window, undefined, 3),
      // incident-priority began within the last hour: no baseline yet.
      ...decidedOutcomes(incident, "ip-w", 29, window),
      // Waiting: `queue` decided, `priority` on its fallback — the first open question is the second card.
      scenarioOutcome(routing, "second-card", at(30 * 60_000), {
        queue: { label: "billing", p: 0.9 },
        priority: { label: "P3", p: 0.3 },
        needs_human: { label: "true", p: 0.9 },
      }),
      scenarioOutcome(routing, "two-open", at(29 * 60_000), {
        queue: { label: "sales", p: 0.3 },
        priority: { label: "P3", p: 0.3 },
        needs_human: { label: "true", p: 0.9 },
      }),
      ...["rev-1", "rev-2", "rev-3"].map((id, index) =>
        scenarioOutcome(routing, id, at((40 + index) * 60_000), { queue: { label: "billing", p: 0.4 } }),
      ),
      scenarioOutcome(batch, "bc-wait", at(20 * 60_000), { document_type: { label: "receipt", p: 0.3 } }),
      scenarioOutcome(incident, "sev", at(21 * 60_000), { severity: { label: "2", p: 0.3 } }),
    ];
    const served = await local.serve(outcomes, { table: TABLE, now: () => new Date(NOW) });
    url = served.url;
    await seedShadowScenario({ documents: local.doc, tableName: TABLE, policy: routing });
    // Reviewed items for the reliability diagram, and an amendment for the history.
    await review("ticket-routing", "rev-1", "alice", { queue: "billing" });
    await review("ticket-routing", "rev-1", "carol", { queue: "sales" }, true);
    await review("ticket-routing", "rev-2", "bob", { queue: "triage" });
    browser = await launchChromium();
    await mkdir(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await local?.stop();
  });

  for (const width of WIDTHS) {
    it(`labels every option of a 12-option and an 8-option question whole and apart on the drift panel at ${width} px`, async () => {
      const page = await pageAs(width);
      for (const [policy, question] of [
        [batch, "document_type"],
        [routing, "queue"],
      ] as const) {
        await page.goto(`${url}#/stats/${policy.name}`);
        const chart = page.locator(
          `section.drift figure[data-question="${question}"] .chart[data-chart="answer-share"]`,
        );
        await chart.locator("tbody tr").first().waitFor();
        const labels = policy.question(question)?.labels ?? [];
        assert.ok(labels.length === 12 || labels.length === 8, `${question} has ${labels.length} options`);
        assert.deepEqual(
          await chart.locator("tbody th.option-name").allTextContents(),
          labels,
          `every option of ${question}, whole, in the policy's order`,
        );
        assert.deepEqual(await labelProblems(chart, "tbody th.option-name"), [], `${question} at ${width}`);
        assert.equal(await sidewaysOverflow(page), 0, "no sideways scrolling");
        await page.screenshot({
          path: join(SHOTS, `readable-stats-${policy.name}-${width}.png`),
          fullPage: true,
        });
      }
      await page.context().close();
    });

    it(`labels every option of a 12-option and an 8-option question whole and apart on the item page at ${width} px, each with its criteria`, async () => {
      const page = await pageAs(width);
      for (const [policy, id, question] of [
        [batch, "bc-wait", "document_type"],
        [routing, "two-open", "queue"],
        [incident, "sev", "severity"],
      ] as const) {
        await page.goto(`${url}#/item/${policy.name}/${id}`);
        const card = page.locator(`.question[data-question="${question}"]`);
        await card.locator("button.choice").first().waitFor();
        const labels = policy.question(question)?.labels ?? [];
        const shown = await card.locator(".option-label").allTextContents();
        assert.deepEqual(
          shown.map((text) => text.replace(" ✓", "")),
          labels,
          `every option of ${question}`,
        );
        assert.deepEqual(await labelProblems(card, ".option-label"), [], `${question} at ${width}`);
        // What each option means, on the page (not a hover tooltip), and tied to its button.
        const criteria = await card.locator(".criteria").allTextContents();
        assert.equal(criteria.length, labels.length, `criteria of every ${question} option`);
        assert.deepEqual(await labelProblems(card, ".criteria"), [], `${question} criteria at ${width}`);
        const described = await card
          .locator("button.choice")
          .evaluateAll((buttons) =>
            buttons.map(
              (button) =>
                button.ownerDocument.getElementById(button.getAttribute("aria-describedby") ?? "")
                  ?.textContent,
            ),
          );
        assert.deepEqual(described, criteria);
        assert.equal(await card.locator("[title]").count(), 0, "no meaning hidden in a tooltip");
        assert.equal(await sidewaysOverflow(page), 0, "no sideways scrolling");
      }
      // Severity's levels read with their meaning, not as bare digits.
      assert.match(
        (await page.locator('.question[data-question="severity"] button.choice').first().textContent()) ?? "",
        /0.*SEV0 informational/,
      );
      await page.screenshot({ path: join(SHOTS, `readable-item-severity-${width}.png`), fullPage: true });
      await page.context().close();
    });

    it(`titles every chart and its axes with their units, ticks apart, at ${width} px`, async () => {
      const page = await pageAs(width);
      for (const policy of [routing, batch, incident]) {
        await page.goto(`${url}#/stats/${policy.name}`);
        await page.locator("section.drift figure").first().waitFor();
        await page.locator("section.shadow").waitFor();
        if (policy === routing)
          await page.locator('section.shadow .chart[data-chart="accuracy"]').first().waitFor();
        const charts = await page.locator("main .chart").evaluateAll((nodes) =>
          nodes.map((chart) => ({
            kind: chart.getAttribute("data-chart") ?? "",
            title: chart.querySelector(".chart-title")?.textContent?.trim() ?? "",
            axes: Object.fromEntries(
              [...chart.querySelectorAll("[data-axis]")].map((axis) => [
                axis.getAttribute("data-axis"),
                axis.textContent?.trim() ?? "",
              ]),
            ),
            svg: chart.querySelector("svg") !== null,
            svgLabel: chart.querySelector("svg")?.getAttribute("aria-label") ?? "",
            empty: chart.querySelector(".empty-chart")?.textContent ?? "",
          })),
        );
        assert.ok(charts.length >= 5, `${policy.name}: ${charts.length} charts`);
        for (const chart of charts) {
          const name = `${policy.name} ${chart.kind} "${chart.title}"`;
          assert.ok(chart.title.length > 10, `${name}: a title`);
          if (chart.empty !== "") {
            assert.equal(chart.svg, false, `${name}: no empty axes`);
            continue;
          }
          assert.match(chart.axes.x ?? "", /\(.+\)/, `${name}: the x axis says its unit`);
          if (chart.svg) assert.ok(chart.svgLabel.length > 10, `${name}: a label for screen readers`);
          if (chart.svg && !["agreement", "accuracy"].includes(chart.kind))
            assert.match(chart.axes.y ?? "", /\(.+\)/, `${name}: the y axis says its unit`);
        }
        assert.deepEqual(
          await svgTextProblems(page),
          [],
          `${policy.name}: every SVG text inside its picture, none on another`,
        );
        const text = (await page.locator("main").textContent()) ?? "";
        assert.doesNotMatch(text, /predicted 0(?![.\d])/, "no axis end that reads as a value");
        // The per-day chart names each day once.
        const days = await page
          .locator('.chart[data-chart="fallback-by-day"] text.tick')
          .allTextContents()
          .then((ticks) => ticks.filter((tick) => !tick.endsWith("%")));
        assert.equal(new Set(days).size, days.length, `${policy.name}: each day once (${days.join(", ")})`);
        assert.equal(await sidewaysOverflow(page), 0, "no sideways scrolling");
        if (policy === incident) {
          // No reviewed item: the diagram says so instead of drawing empty axes.
          const empty = page.locator('.chart[data-chart="reliability"] .empty-chart').first();
          assert.match(
            (await empty.textContent()) ?? "",
            /No reviewed item answers severity yet.*appears once/,
          );
        }
      }
      await page.context().close();
    });
  }

  it("says why a drift distance is missing and when it appears: a baseline needs the day before's outcomes", async () => {
    const page = await pageAs(1400);
    await page.goto(`${url}#/stats/incident-priority`);
    const severity = page.locator('section.drift figure[data-question="severity"]');
    await severity.waitFor();
    const missing = (await severity.locator('[data-field="missing"]').textContent()) ?? "";
    assert.match(
      missing,
      /No baseline yet: the baseline is the answers decided in the 24 hours before the last hour/,
    );
    assert.match(missing, /2026-12-02 11:00 UTC to 2026-12-03 11:00 UTC/);
    assert.match(missing, /at least 50 answers — after a day of outcomes/);
    assert.match(
      (await severity.locator("figcaption").textContent()) ?? "",
      /30 answers in the last hour, 0 in the day before/,
    );
    assert.doesNotMatch(
      (await severity.textContent()) ?? "",
      /moved by/i,
      "no 'nothing moved' without a baseline",
    );

    await page.goto(`${url}#/stats/ticket-routing`);
    const queue = page.locator('section.drift figure[data-question="queue"]');
    await queue.waitFor();
    assert.match((await queue.locator('[data-field="distance"]').textContent()) ?? "", /^0\.\d{3}$/);
    assert.equal(await queue.locator('[data-field="missing"]').count(), 0);
    assert.match((await queue.textContent()) ?? "", /technical_support: \d+% → \d+%/);
    await page.context().close();
  });

  it("shows the shadow report's questions in the policy's order, its summary spaced and the candidate's name whole", async () => {
    const page = await pageAs(768);
    await page.goto(`${url}#/stats/ticket-routing`);
    const section = page.locator("section.shadow");
    await section.locator('.chart[data-chart="accuracy"]').first().waitFor();
    const order = await section
      .locator("figure.shadow-question")
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-question")));
    assert.deepEqual(order, ["queue", "priority", "needs_human"], "the policy's order");
    assert.match(
      (await section.locator(".shadow-summary").textContent())?.replace(/\s+/g, " ") ?? "",
      /: 4 records, 3 items compared, 1 failed, 0 without a live outcome\./,
    );
    const rows = await section.locator('.chart[data-chart="accuracy"] text.row-label').allTextContents();
    assert.ok(
      rows.some((row) => row.startsWith("seed-7: ")),
      rows.join(" | "),
    );
    await page.screenshot({ path: join(SHOTS, "readable-shadow-768.png"), fullPage: true });
    await page.context().close();
  });

  it("follows the cards with the keys: on an item whose first open question is the second card, 1 answers it and the focus stays there", async () => {
    const page = await pageAs(1400);
    await page.goto(`${url}#/item/ticket-routing/second-card`);
    const priority = page.locator('.question[data-question="priority"]');
    await priority.locator("button.choice").first().waitFor();
    await page.locator('.question.active[data-question="priority"]').waitFor();

    await page.keyboard.press("1");
    await priority.locator('button.choice[aria-checked="true"]').waitFor();
    assert.equal(
      await priority.locator('button.choice[aria-checked="true"]').count(),
      1,
      "1 answered priority",
    );
    assert.match((await priority.locator('button.choice[aria-checked="true"]').textContent()) ?? "", /P1/);
    assert.equal(
      await page.locator(".question.active").getAttribute("data-question"),
      "priority",
      "still on priority",
    );
    assert.equal(await focusedCard(page, "priority"), "priority", "the page's focus stays on priority");
    assert.equal(
      await page.locator('.question[data-question="queue"] button.choice').count(),
      0,
      "queue stands",
    );

    // Two open questions: 1 answers the first card, the focus moves down to the second and stays.
    await page.goto(`${url}#/item/ticket-routing/two-open`);
    const queue = page.locator('.question[data-question="queue"]');
    await queue.locator("button.choice").first().waitFor();
    assert.equal(await focusedCard(page, "queue"), "queue");
    await page.keyboard.press("2");
    assert.equal(await focusedCard(page, "priority"), "priority");
    await page.keyboard.press("3");
    assert.equal(await focusedCard(page, "priority"), "priority", "after the last card the focus stays");
    assert.match((await queue.locator('[aria-checked="true"]').textContent()) ?? "", /technical_support/);
    assert.match(
      (await page.locator('.question[data-question="priority"] [aria-checked="true"]').textContent()) ?? "",
      /P3/,
    );
    await page.keyboard.press("k");
    assert.equal(await focusedCard(page, "queue"), "queue", "K moves up a card");
    await page.context().close();
  });

  it("asks for the reviewer's name before the first answer", async () => {
    const page = await pageAs(768, "");
    await page.goto(`${url}#/item/ticket-routing/second-card`);
    const field = page.locator("#reviewer-first");
    await field.waitFor();
    assert.equal(await focusedId(page, "reviewer-first"), "reviewer-first", "the name is asked first");
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.press("1");
    assert.match((await page.locator("main .error").textContent()) ?? "", /Type your name first/);
    assert.equal(await page.locator('[aria-checked="true"]').count(), 0, "no answer without a name");
    assert.equal(await focusedId(page, "reviewer-first"), "reviewer-first");

    await field.fill("frank");
    await field.press("Enter");
    await field.waitFor({ state: "detached" });
    assert.equal(await page.locator("#reviewer").inputValue(), "frank", "the header shows the name");
    assert.equal(await focusedCard(page, "priority"), "priority");
    await page.keyboard.press("1");
    await page.locator('[aria-checked="true"]').waitFor();
    assert.equal(await page.locator('[aria-checked="true"]').count(), 1);
    assert.equal(await page.locator("main .error").count(), 0);
    await page.context().close();
  });

  it("keeps the queue's filters and order in the address, counts what waits, names the questions of an unknown one, and skips", async () => {
    const page = await pageAs(1400);
    await page.goto(url);
    await page.locator("tbody tr").first().waitFor();
    const count = (await (await fetch(new URL("api/queue/count", url))).json()) as { waiting: number };
    await page.locator('[data-field="waiting"]', { hasText: "wait" }).waitFor();
    assert.equal(
      await page.locator('[data-field="waiting"]').textContent(),
      `${count.waiting} items wait for review across all policies.`,
    );

    await page.locator("select").first().selectOption("ticket-routing");
    await page.waitForURL(/policy=ticket-routing/);
    await page.locator('select[name="order"]').selectOption("margin");
    await page.waitForURL(/order=margin/);
    await page.locator(".order-window").waitFor();
    await page.reload();
    await page.locator(".order-window").waitFor();
    assert.equal(
      await page.locator("select").first().inputValue(),
      "ticket-routing",
      "the reload keeps the policy",
    );
    assert.equal(await page.locator('select[name="order"]').inputValue(), "margin", "and the order");
    const policies = await page.locator("tbody tr td:nth-child(2)").allTextContents();
    assert.ok(
      policies.length > 0 && policies.every((policy) => policy === "ticket-routing"),
      policies.join(),
    );
    assert.match(
      (await page.locator('[data-field="waiting"]').textContent()) ?? "",
      /items? wait for review in ticket-routing/,
    );

    // Skip: the next item of the same view opens; the skipped one is marked in the queue.
    const first = (await page.locator("tbody tr").first().getAttribute("data-id")) ?? "";
    await page.locator("tbody tr").first().locator("a").click();
    await page.locator(".question").first().waitFor();
    assert.match(page.url(), /\?policy=ticket-routing&order=margin$/, "the item keeps the view");
    await page.getByRole("button", { name: "Skip" }).click();
    await page.waitForURL((address) => !address.hash.includes(`/${first}?`));
    assert.match(page.url(), /#\/item\/ticket-routing\/[^?]+\?policy=ticket-routing&order=margin$/);
    await page.getByRole("link", { name: "← back to the queue" }).click();
    await page.waitForURL(/#\/\?policy=ticket-routing&order=margin$/);
    await page.locator(`tr[data-id="${first}"] .badge.skipped`).waitFor();

    // A question no policy has: the page names the questions instead of "nothing waits".
    const question = page.locator('input[placeholder="e.g. queue"]');
    await question.fill("prority");
    await question.press("Enter");
    await page.waitForURL(/question=prority/);
    const error = page.locator("main .error[role=alert]");
    await error.waitFor();
    assert.match(
      (await error.textContent()) ?? "",
      /Question on fallback: ticket-routing has no question "prority"; its questions are queue, priority, needs_human/,
    );
    assert.doesNotMatch((await page.locator("main").textContent()) ?? "", /Nothing is waiting/);
    await page.screenshot({ path: join(SHOTS, "readable-queue-1400.png"), fullPage: true });
    await page.context().close();
  });

  it('words the history as outcomes show does: "amended by carol: queue=sales (was billing)"', async () => {
    const page = await pageAs(1400);
    await page.goto(`${url}#/item/ticket-routing/rev-1`);
    await page.locator("ul.history li").nth(2).waitFor();
    const shown = await page.locator("ul.history li").evaluateAll((items) =>
      items.map((item) =>
        [...item.childNodes]
          .filter((node) => node.nodeName !== "TIME")
          .map((node) => node.textContent)
          .join("")
          .trim(),
      ),
    );
    const outcome = await stored("ticket-routing", "rev-1");
    const printed = formatReviewHistory(outcome).map((line) => line.replace(/^\S*\s+/, ""));
    assert.deepEqual(shown, printed, "the page's words are outcomes show's");
    assert.deepEqual(
      shown,
      reviewHistoryEntries(outcome, reviewsOf(outcome)).map((entry) => entry.text),
    );
    assert.equal(shown[2], "amended by carol: queue=sales (was billing) → reviewed");
    await page.context().close();
  });

  // At 768 px the policy page of ticket-routing stands for the three: it draws every kind of picture.
  for (const [width, pictures] of [
    [1400, ["ticket-routing", "batch-classification", "incident-priority"]],
    [768, ["ticket-routing"]],
  ] as const) {
    it(`has no accessibility violation on the queue, an item and the policy pages of ${pictures.join(", ")} at ${width} px`, async () => {
      const page = await pageAs(width);
      await page.goto(url);
      await page.locator("tbody tr").first().waitFor();
      await page.locator('[data-field="waiting"]', { hasText: "wait for review" }).waitFor();
      await assertAccessible(page, "queue");
      await page.goto(`${url}#/item/batch-classification/bc-wait`);
      await page.locator(".question button.choice").first().waitFor();
      await assertAccessible(page, "item");
      await page.screenshot({ path: join(SHOTS, `readable-item-batch-${width}.png`), fullPage: true });
      for (const policy of pictures) {
        await page.goto(`${url}#/stats/${policy}`);
        await page.locator("section.drift figure").first().waitFor();
        await page.locator("section.shadow").waitFor();
        await assertAccessible(page, `stats of ${policy}`);
      }
      await page.context().close();
    });
  }
});

/** How far the page scrolls sideways (0: it fits). */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.locator("html").evaluate((root) => root.scrollWidth - root.clientWidth);
}

/**
 * The id of the element that holds the page's focus, once `expected` has it or Playwright's wait
 * for it ends (the page moves the focus after it draws).
 */
async function focusedId(page: Page, expected: string): Promise<string | undefined> {
  await page
    .locator(`#${expected}:focus`)
    .waitFor()
    .catch(() => undefined);
  return page.locator("body").evaluate((body) => body.ownerDocument.activeElement?.id);
}

/** The question card that holds the page's focus, once `expected` has it or Playwright's wait for it ends. */
async function focusedCard(page: Page, expected: string): Promise<string | null> {
  await page
    .locator(`.question[data-question="${expected}"]:focus`)
    .waitFor()
    .catch(() => undefined);
  return page
    .locator("body")
    .evaluate(
      (body) => body.ownerDocument.activeElement?.closest(".question")?.getAttribute("data-question") ?? null,
    );
}

/**
 * What is wrong with the labels `selector` finds in `scope`, measured from the page's layout: a
 * label with no size, cut (its text wider than its box), outside its container (the chart or the
 * card), under another element, overlapping another label, or in type under 11 px or over 20 px.
 */
async function labelProblems(scope: ReturnType<Page["locator"]>, selector: string): Promise<string[]> {
  await scope.scrollIntoViewIfNeeded();
  return scope.evaluate((container, query) => {
    const problems: string[] = [];
    const box = container.getBoundingClientRect();
    const document = container.ownerDocument;
    const labels = [...container.querySelectorAll(query)];
    if (labels.length === 0) problems.push(`no ${query}`);
    const rects = labels.map((label) => label.getBoundingClientRect());
    labels.forEach((label, index) => {
      const rect = rects[index] as (typeof rects)[number];
      const name = `"${label.textContent}"`;
      if (rect.width < 1 || rect.height < 1) problems.push(`${name} has no size`);
      if (label.scrollWidth > label.clientWidth + 1 || label.scrollHeight > label.clientHeight + 1)
        problems.push(
          `${name} is cut: ${label.scrollWidth}×${label.scrollHeight} in ${label.clientWidth}×${label.clientHeight}`,
        );
      if (
        rect.left < box.left - 0.5 ||
        rect.right > box.right + 0.5 ||
        rect.top < box.top - 0.5 ||
        rect.bottom > box.bottom + 0.5
      )
        problems.push(`${name} sticks out of its container`);
      const style = (document.defaultView as NonNullable<typeof document.defaultView>).getComputedStyle(
        label,
      );
      if (style.visibility !== "visible" || Number(style.opacity) < 1) problems.push(`${name} is hidden`);
      const size = Number.parseFloat(style.fontSize);
      if (size < 11 || size > 20) problems.push(`${name} in ${size} px type`);
      label.scrollIntoView({ block: "center" });
      const now = label.getBoundingClientRect();
      const top = document.elementFromPoint(now.left + Math.min(4, now.width / 2), now.top + now.height / 2);
      if (top === null || !(label === top || label.contains(top) || top.contains(label)))
        problems.push(`${name} is covered by ${top?.nodeName ?? "nothing"}`);
      rects.forEach((other, otherIndex) => {
        if (otherIndex <= index) return;
        const width = Math.min(rect.right, other.right) - Math.max(rect.left, other.left);
        const height = Math.min(rect.bottom, other.bottom) - Math.max(rect.top, other.top);
        if (width > 0.5 && height > 0.5)
          problems.push(`${name} overlaps "${labels[otherIndex]?.textContent}"`);
      });
    });
    return problems;
  }, selector);
}

/** SVG texts outside their picture, or overlapping another text of it. */
function svgTextProblems(page: Page): Promise<string[]> {
  return page.locator("main").evaluate((main) => {
    const problems: string[] = [];
    for (const svg of main.querySelectorAll("svg")) {
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll("text")];
      const rects = texts.map((text) => text.getBoundingClientRect());
      texts.forEach((text, index) => {
        const rect = rects[index] as (typeof rects)[number];
        const name = `"${text.textContent}" in "${svg.getAttribute("aria-label")?.slice(0, 60)}"`;
        if (
          rect.left < box.left - 0.5 ||
          rect.right > box.right + 0.5 ||
          rect.top < box.top - 0.5 ||
          rect.bottom > box.bottom + 0.5
        )
          problems.push(`${name} sticks out`);
        rects.forEach((other, otherIndex) => {
          if (otherIndex <= index) return;
          const width = Math.min(rect.right, other.right) - Math.max(rect.left, other.left);
          const height = Math.min(rect.bottom, other.bottom) - Math.max(rect.top, other.top);
          if (width > 0.5 && height > 0.5)
            problems.push(`${name} overlaps "${texts[otherIndex]?.textContent}"`);
        });
      });
    }
    return problems;
  });
}

/** axe finds no violation at all (any impact) on the page as it stands. */
async function assertAccessible(page: Page, name: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  assert.deepEqual(
    result.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((node) => node.target.join(" "))
          .join("; ")
          .slice(0, 300)}`,
    ),
    [],
    `${name} page accessibility`,
  );
}
