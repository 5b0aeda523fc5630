/**
 * The local review console refuses what another web page in the same browser could send it: a
 * request naming another host (DNS rebinding), a write from another origin, a write that is not
 * JSON (a form or a no-cors fetch). Its own page, and clients that are not browsers, pass.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { loadPolicies } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../functions/reviewConsole/index.js";
import { type ReviewServer, startReviewServer } from "../../../local/services/startReviewServer.js";
import { templateConsoleRoutes } from "../../support/templateConsoleRoutes.js";

const POLICIES = new URL("../../../policies", import.meta.url).pathname;
/** An item no table holds: a write that gets past the guard reaches the API and fails there (not 4xx of the guard). */
const REVIEW_PATH = "/api/items/ticket-routing/T-1/review";

/** Sends one request with exactly these headers (fetch would set Host and Origin itself). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, method, path, headers, setHost: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () =>
        resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

describe("the local review console's guard against other web pages", () => {
  let server: ReviewServer;
  let port: number;
  let client: DynamoDBDocumentClient;

  before(async () => {
    // Nothing listens on port 9: a request that reaches the table fails there, after the guard.
    client = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: "us-east-1",
        endpoint: "http://127.0.0.1:9",
        credentials: { accessKeyId: "local", secretAccessKey: "local" },
        maxAttempts: 1,
      }),
    );
    server = await startReviewServer({
      api: new ReviewApi({ client, tableName: "outcomes", policies: await loadPolicies(POLICIES) }),
      defaultReviewer: "owner",
      routes: await templateConsoleRoutes(),
    });
    port = Number(new URL(server.url).port);
  });

  after(async () => {
    await server?.stop();
    client?.destroy();
  });

  it("serves its own address and localhost, and refuses a request naming any other host (DNS rebinding)", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      assert.equal((await send(port, "GET", "/api/policies", { host })).status, 200, host);
      assert.equal((await send(port, "GET", "/", { host })).status, 200, host);
    }
    for (const host of [`evil.example:${port}`, "127.0.0.1", `127.0.0.1:${port + 1}`]) {
      const answer = await send(port, "GET", "/api/policies", { host });
      assert.equal(answer.status, 421, host);
      assert.match(JSON.parse(answer.body).error, /answers only as http:\/\/127\.0\.0\.1:/);
    }
    // Node's server itself answers an HTTP/1.1 request without a Host header with 400.
    const hostless = (await send(port, "GET", "/api/policies", {})).status;
    assert.ok(hostless === 400 || hostless === 421, `no Host header: ${hostless}`);
  });

  it("refuses a write from another origin or another site, even as JSON", async () => {
    const json = { host: `127.0.0.1:${port}`, "content-type": "application/json" };
    const body = JSON.stringify({ answers: { queue: "billing" }, expect_updated_at: "x" });
    const extras: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: `http://127.0.0.1:${port + 1}` },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const extra of extras) {
      const answer = await send(port, "POST", REVIEW_PATH, { ...json, ...extra }, body);
      assert.equal(answer.status, 403, JSON.stringify(extra));
      assert.match(JSON.parse(answer.body).error, /only from the console's own page/);
    }
  });

  it("refuses a write that is not JSON, as a form or a no-cors fetch would send it", async () => {
    const body = JSON.stringify({ answers: { queue: "billing" }, expect_updated_at: "x" });
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const answer = await send(
        port,
        "POST",
        REVIEW_PATH,
        { host: `127.0.0.1:${port}`, "content-type": type },
        body,
      );
      assert.equal(answer.status, 415, type);
    }
    const untyped = await send(port, "POST", REVIEW_PATH, { host: `127.0.0.1:${port}` }, body);
    assert.equal(untyped.status, 415);
  });

  it("lets a write from its own page, or from a client that is no browser, through to the API", async () => {
    const body = JSON.stringify({ answers: { queue: "billing" }, expect_updated_at: "2026-01-01T00:00:00Z" });
    const extras: Record<string, string>[] = [
      { origin: `http://127.0.0.1:${port}`, "sec-fetch-site": "same-origin" },
      { origin: `http://localhost:${port}` },
      {},
    ];
    for (const extra of extras) {
      const headers = {
        host: `127.0.0.1:${port}`,
        "content-type": "application/json; charset=utf-8",
        ...extra,
      };
      const answer = await send(port, "POST", REVIEW_PATH, headers, body);
      // Past the guard the API reads the table, which is not there: the console's own error, not a refusal.
      assert.equal(answer.status, 500, `${JSON.stringify(extra)}: ${answer.body}`);
      assert.match(JSON.parse(answer.body).error, /the review console failed|outcomes/);
    }
  });
});
