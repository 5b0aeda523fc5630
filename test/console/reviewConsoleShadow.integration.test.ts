/**
 * The policy page's shadow section in Chromium against the local console server on DynamoDB Local:
 * live outcomes of ticket-routing (one reviewed by a person) and a candidate's real shadow records
 * of them (one failed), drawn as pictures whose numbers are those `decisions shadow report --json`
 * prints for the same table.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Browser } from "playwright-core";
import { createShadowCommand } from "../../cli/commands/shadowCommand.js";
import { outcomesTableDefinition } from "../../core/outcomes/index.js";
import { loadPolicies, type Policy } from "../../core/policy/index.js";
import { ReviewApi } from "../../functions/reviewConsole/index.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../local/services/startDynamoDbLocal.js";
import { type ReviewServer, startReviewServer } from "../../local/services/startReviewServer.js";
import { LOCAL_CREDENTIALS } from "../../local/stack/createLocalClients.js";
import { browserSkipReason, launchChromium } from "../support/launchChromium.js";
import { seedShadowScenario } from "../support/seedShadowScenario.js";
import { templateConsoleRoutes } from "../support/templateConsoleRoutes.js";

const skip = browserSkipReason();
const POLICIES = new URL("../../policies", import.meta.url).pathname;
const POLICY = "ticket-routing";
const TABLE = "outcomes";

describe("the policy page's shadow section in Chromium (DynamoDB Local)", { skip }, () => {
  let ddbLocal: DynamoDbLocal;
  let doc: DynamoDBDocumentClient;
  let server: ReviewServer;
  let browser: Browser;
  let policy: Policy;

  before(async () => {
    ddbLocal = await startDynamoDbLocal({ env: process.env });
    doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: ddbLocal.endpoint,
        region: "us-east-1",
        credentials: LOCAL_CREDENTIALS,
      }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    await doc.send(new CreateTableCommand(outcomesTableDefinition(TABLE)));
    const policies = await loadPolicies(POLICIES);
    policy = policies.get(POLICY) as Policy;
    await seedShadowScenario({ documents: doc, tableName: TABLE, policy });
    server = await startReviewServer({
      api: new ReviewApi({ client: doc, tableName: TABLE, policies }),
      routes: await templateConsoleRoutes(),
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    doc?.destroy();
    await ddbLocal?.stop();
  });

  it("draws agreement, status changes, review load, confidence and accuracy with the numbers shadow report --json prints", async () => {
    let out = "";
    const code = await createShadowCommand({
      stdout: {
        write: (text: string) => {
          out += text;
          return true;
        },
      },
      stderr: { write: () => true },
    }).run(["report", "--policy", POLICY, "--endpoint-url", ddbLocal.endpoint, "--table", TABLE, "--json"]);
    assert.equal(code, 0);
    const report = JSON.parse(out);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto(`${server.url}#/stats/${POLICY}`);
    const section = page.locator("section.shadow");
    await section.locator("figure[data-question=queue] svg").first().waitFor();
    const field = async (name: string, scope = section) =>
      ((await scope.locator(`[data-field="${name}"]`).first().textContent()) ?? "").trim();
    const queue = section.locator("figure[data-question=queue]");

    assert.deepEqual(errors, []);
    assert.match((await section.locator("h3").textContent()) ?? "", /seed-7/);
    assert.equal(await field("records"), String(report.records));
    assert.equal(await field("sampled"), String(report.sampled));
    assert.equal(await field("failed"), String(report.failed));
    assert.equal(await field("to-automated"), `${report.status.to_automated.count} (33.3%)`);
    assert.equal(await field("to-review"), "0 (0.0%)");
    assert.equal(await field("review-load"), "live 1 (33.3%), seed-7 0 (0.0%)");
    assert.equal(
      await section.locator('[data-transition="fallback→decided"]').textContent(),
      "fallback→decided: 1",
    );
    assert.equal(await field("agreement", queue), `${(report.questions.queue.agreement * 100).toFixed(1)}%`);
    const accuracy = report.questions.queue.accuracy;
    assert.equal(accuracy.labelled, 1);
    const interval = (side: { accuracy: number; interval: { lower: number; upper: number } }) =>
      `${(side.accuracy * 100).toFixed(1)}% [${(side.interval.lower * 100).toFixed(1)}%, ${(side.interval.upper * 100).toFixed(1)}%]`;
    assert.equal(
      await field("accuracy", queue),
      `live ${interval(accuracy.a)}, seed-7 ${interval(accuracy.b)}`,
    );
    // The pictures: an agreement bar, the confidence histograms of both sides, the accuracy intervals.
    assert.equal(await queue.locator("svg[role=img]").count(), 3);
    const bars = await queue.locator("svg[aria-label*=confidence] rect title").allTextContents();
    const counted = (side: "live" | "seed-7") =>
      bars.filter((title) => title.endsWith(side)).map((title) => Number(/: (\d+) /.exec(title)?.[1]));
    assert.deepEqual(counted("live"), report.questions.queue.confidence.a);
    assert.deepEqual(counted("seed-7"), report.questions.queue.confidence.b);
    await page.close();
  });
});
