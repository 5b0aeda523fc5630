/**
 * The review console's page in Chromium against the local console server on DynamoDB Local: an
 * item whose id is a URL dot segment (`..`, `.`) opens and is reviewed, a malformed item link
 * shows an error view instead of a blank page, and loading the page and an item leaves no failed
 * request and no error in the browser's console.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Browser, Page } from "playwright-core";
import { outcomesTableDefinition } from "../../functions/outcomes/index.js";
import { loadPolicies } from "../../functions/policy/index.js";
import { ReviewApi } from "../../functions/reviewConsole/index.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../local/services/startDynamoDbLocal.js";
import { type ReviewServer, startReviewServer } from "../../local/services/startReviewServer.js";
import { LOCAL_CREDENTIALS } from "../../local/stack/createLocalClients.js";
import { browserSkipReason, launchChromium } from "../support/launchChromium.js";
import { waitingOutcome } from "../support/waitingOutcome.js";

const skip = browserSkipReason();
const POLICIES = new URL("../../policies", import.meta.url).pathname;
const POLICY = "ticket-routing";
const TABLE = "outcomes";

/** What went wrong in a page: failed responses, console errors, uncaught exceptions. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  page.on("requestfailed", (request) => problems.push(`failed ${request.url()}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

describe("the review console's links in Chromium (DynamoDB Local)", { skip }, () => {
  let ddbLocal: DynamoDbLocal;
  let doc: DynamoDBDocumentClient;
  let server: ReviewServer;
  let browser: Browser;

  before(async () => {
    ddbLocal = await startDynamoDbLocal();
    doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: ddbLocal.endpoint,
        region: "us-east-1",
        credentials: LOCAL_CREDENTIALS,
      }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    await doc.send(new CreateTableCommand(outcomesTableDefinition(TABLE)));
    for (const [index, id] of ["..", ".", "plain"].entries())
      await doc.send(
        new PutCommand({
          TableName: TABLE,
          Item: waitingOutcome(POLICY, id, `2026-12-01T10:00:0${index}.000Z`),
        }),
      );
    server = await startReviewServer({
      api: new ReviewApi({ client: doc, tableName: TABLE, policies: await loadPolicies(POLICIES) }),
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    doc?.destroy();
    await ddbLocal?.stop();
  });

  for (const id of ["..", "."]) {
    it(`opens the item whose id is "${id}" from the queue and reviews it`, async () => {
      const page = await browser.newPage();
      const problems = watch(page);
      await page.goto(server.url);
      await page.locator("#reviewer").fill("ana");
      await page.locator("#reviewer").blur();
      const row = page.locator(`tr[data-id="${id}"]`);
      await row.waitFor();

      await row.locator("a").click();
      await page.locator(".question, main .error").first().waitFor();

      assert.deepEqual(problems, []);
      assert.equal(await page.locator("main .error").count(), 0);
      const heading = (await page.locator("h2").textContent()) ?? "";
      assert.ok(heading.startsWith(`${id} `), heading);
      await page.keyboard.press("1");
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => !url.hash.endsWith(`/${id}`));
      const stored = (await doc.send(new GetCommand({ TableName: TABLE, Key: { policy: POLICY, id } }))).Item;
      assert.equal(stored?.status, "reviewed");
      assert.equal(stored?.review?.by, "ana");
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it("shows an error view, not a blank page, for a malformed item link", async () => {
    const page = await browser.newPage();
    const problems = watch(page);

    await page.goto(`${server.url}#/item/%E0%A4%A`);
    const alert = page.locator("main .error[role=alert]");
    await alert.waitFor();

    assert.match((await alert.textContent()) ?? "", /not valid percent-encoding/);
    assert.deepEqual(problems, []);
    await page.locator('main a[href="#/"]').click();
    await page.locator("tbody tr").first().waitFor();
    await page.evaluate('location.hash = "#/stats/%ZZ"');
    await alert.waitFor();
    assert.deepEqual(problems, []);
    await page.close();
  });

  it("loads the queue and an item with no failed request and no error in the browser's console", async () => {
    const page = await browser.newPage();
    const problems = watch(page);

    await page.goto(server.url);
    await page.locator('tr[data-id="plain"] a').click();
    await page.locator(".question").first().waitFor();

    assert.deepEqual(problems, []);
    await page.close();
  });

  it("answers an id sent base64url-encoded, and refuses a segment that is not one", async () => {
    const get = (path: string) => fetch(new URL(path, server.url));
    const dots = await get(
      `api/items/${POLICY}/${Buffer.from("..").toString("base64url")}?id_encoding=base64url`,
    );
    assert.equal(dots.status, 200);
    assert.equal(((await dots.json()) as { outcome: { id: string } }).outcome.id, "..");
    for (const segment of ["Li4=", "L!4", "_w"])
      assert.equal((await get(`api/items/${POLICY}/${segment}?id_encoding=base64url`)).status, 400, segment);
    assert.equal((await get(`api/items/${POLICY}/plain?id_encoding=hex`)).status, 400);
  });
});
