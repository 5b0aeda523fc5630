/**
 * The deployed console's Lambda adapter: API Gateway HTTP API events onto the router, the reviewer
 * taken only from the authorizer's verified claims. A fake ReviewApi records what the router hands
 * it (unit test; the router and ReviewApi have their own tests, and the deployed table access is
 * checked against the bundle below).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { createReviewConsoleHandler } from "../../../functions/reviewConsole/createReviewConsoleHandler.js";
import type { ReviewApi, Reviewer } from "../../../functions/reviewConsole/index.js";
import { REVIEWERS_GROUP } from "../../../functions/reviewConsole/index.js";
import { REVIEW_CONSOLE_TABLE_ACTIONS, REVIEWERS_GROUP_NAME } from "../../../infra/index.js";
import { apiGatewayEvent, cognitoClaims } from "./apiGatewayEvent.js";

interface ReviewCall {
  policy: string;
  id: string;
  body: { answers: Record<string, string>; expectUpdatedAt: string };
  reviewer: Reviewer;
}

function fakeApi(options: { fail?: Error } = {}): { api: ReviewApi; reviews: ReviewCall[] } {
  const reviews: ReviewCall[] = [];
  const api = {
    policyNames: () => ["ticket-routing"],
    queue: async () => {
      if (options.fail !== undefined) throw options.fail;
      return { items: [] };
    },
    item: async (policy: string, id: string) => ({ policy, id }),
    review: async (policy: string, id: string, body: ReviewCall["body"], reviewer: Reviewer) => {
      reviews.push({ policy, id, body, reviewer });
      return { policy, id, by: reviewer.name };
    },
    stats: async () => ({}),
  };
  return { api: api as unknown as ReviewApi, reviews };
}

const REVIEW_PATH = "/api/items/ticket-routing/T-1/review";

describe("createReviewConsoleHandler", () => {
  it("answers a reviewer's read with the router's answer, uncached", async () => {
    const { api } = fakeApi();
    const handler = createReviewConsoleHandler(api);
    const answer = await handler(
      apiGatewayEvent({ method: "GET", path: "/api/me", claims: cognitoClaims() }),
    );
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers?.["cache-control"], "no-store");
    assert.deepEqual(JSON.parse(answer.body ?? ""), {
      reviewer: { name: "ana@example.com", source: "token" },
    });
  });

  it("takes the reviewer from the token's claims, never from the body or the X-Reviewer header", async () => {
    const { api, reviews } = fakeApi();
    const handler = createReviewConsoleHandler(api);
    const body = JSON.stringify({
      answers: { queue: "billing" },
      expect_updated_at: "2026-12-01T22:00:00.000Z",
      by: "mallory@example.com",
      reviewer: { name: "mallory@example.com", source: "token" },
    });
    const answer = await handler(
      apiGatewayEvent({
        method: "POST",
        path: REVIEW_PATH,
        body,
        headers: { "x-reviewer": "mallory@example.com" },
        claims: cognitoClaims(),
      }),
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(reviews.length, 1);
    assert.deepEqual(reviews[0]?.reviewer, { name: "ana@example.com", source: "token" });
    assert.deepEqual(reviews[0]?.body, {
      answers: { queue: "billing" },
      expectUpdatedAt: "2026-12-01T22:00:00.000Z",
    });
  });

  it("reads a base64 body as API Gateway sends binary-looking bodies", async () => {
    const { api, reviews } = fakeApi();
    const handler = createReviewConsoleHandler(api);
    const body = JSON.stringify({ answers: { queue: "billing" }, expect_updated_at: "t" });
    const answer = await handler(
      apiGatewayEvent({ method: "POST", path: REVIEW_PATH, body, base64: true, claims: cognitoClaims() }),
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(reviews[0]?.body.answers.queue, "billing");
  });

  it("refuses a base64 body that is not UTF-8 with a 400 naming it, before the router, and keeps valid UTF-8 as sent", async () => {
    const { api, reviews } = fakeApi();
    const handler = createReviewConsoleHandler(api);
    const event = (bytes: Buffer) => ({
      ...apiGatewayEvent({
        method: "POST",
        path: REVIEW_PATH,
        body: "{}",
        base64: true,
        claims: cognitoClaims(),
      }),
      body: bytes.toString("base64"),
    });
    const json = (queue: string) => `{"answers": {"queue": "${queue}"}, "expect_updated_at": "t"}`;
    // Two answers differing only in bytes that are not UTF-8 (0xFF, 0xFE) would both become U+FFFD.
    const invalid = [0xff, 0xfe].map((byte) =>
      Buffer.concat([
        Buffer.from(json("billing").slice(0, -30)),
        Buffer.from([byte]),
        Buffer.from(json("billing").slice(-30)),
      ]),
    );

    const answers = await Promise.all(invalid.map((bytes) => handler(event(bytes))));
    const valid = await handler(event(Buffer.from(json("Zoë ✓"), "utf8")));

    for (const answer of answers) {
      assert.equal(answer.statusCode, 400, answer.body);
      assert.match(JSON.parse(answer.body ?? "").error, /not valid UTF-8/);
    }
    assert.equal(valid.statusCode, 200, valid.body);
    assert.deepEqual(
      reviews.map((call) => call.body.answers.queue),
      ["Zoë ✓"],
    );
  });

  it("refuses every route without claims (401) and members of other groups (403), before the router", async () => {
    const { api, reviews } = fakeApi();
    const handler = createReviewConsoleHandler(api);
    const body = JSON.stringify({ answers: { queue: "billing" }, expect_updated_at: "t" });
    for (const [method, path] of [
      ["GET", "/api/queue"],
      ["GET", "/api/me"],
      ["POST", REVIEW_PATH],
    ] as const) {
      const none = await handler(apiGatewayEvent({ method, path, body }));
      assert.equal(none.statusCode, 401, `${method} ${path}`);
      for (const groups of ["[admins]", "[reviewers-old admins]", ""]) {
        const other = await handler(
          apiGatewayEvent({ method, path, body, claims: cognitoClaims({ "cognito:groups": groups }) }),
        );
        assert.equal(other.statusCode, 403, `${method} ${path} groups ${groups}`);
        assert.match(JSON.parse(other.body ?? "").error, /reviewers/);
      }
    }
    assert.equal(reviews.length, 0);
  });

  it("accepts the reviewers group among others", async () => {
    const { api } = fakeApi();
    const handler = createReviewConsoleHandler(api);
    const answer = await handler(
      apiGatewayEvent({
        method: "GET",
        path: "/api/queue",
        claims: cognitoClaims({ "cognito:groups": "[admins reviewers]" }),
      }),
    );
    assert.equal(answer.statusCode, 200);
  });

  it("reads each group name whole: a group whose name holds a comma is not the reviewers group", async () => {
    const { api } = fakeApi();
    const handler = createReviewConsoleHandler(api);
    // A Cognito group name may hold commas (punctuation) but no white space; the authorizer writes
    // the list as `[a b]`.
    for (const groups of [
      "[reviewers,admins]",
      "[admins,reviewers]",
      "reviewers,admins",
      "[ops reviewers,x]",
    ]) {
      const answer = await handler(
        apiGatewayEvent({
          method: "GET",
          path: "/api/queue",
          claims: cognitoClaims({ "cognito:groups": groups }),
        }),
      );
      assert.equal(answer.statusCode, 403, groups);
    }
    for (const groups of ["[reviewers,admins reviewers]", "[a,b  reviewers]", "reviewers"]) {
      const answer = await handler(
        apiGatewayEvent({
          method: "GET",
          path: "/api/queue",
          claims: cognitoClaims({ "cognito:groups": groups }),
        }),
      );
      assert.equal(answer.statusCode, 200, groups);
    }
    // Read directly (not through the authorizer), the claim is an array of names.
    const asArray = (groups: string[]) => {
      const event = apiGatewayEvent({ method: "GET", path: "/api/queue", claims: cognitoClaims() });
      (event.requestContext.authorizer.jwt.claims as Record<string, unknown>)["cognito:groups"] = groups;
      return handler(event);
    };
    assert.equal((await asArray(["reviewers,admins"])).statusCode, 403);
    assert.equal((await asArray(["admins", "reviewers"])).statusCode, 200);
  });

  it("answers 500 without internals when something unexpected fails, and logs it", async () => {
    const { api } = fakeApi({ fail: new Error("ProvisionedThroughputExceeded at arn:aws:dynamodb:secret") });
    const logged: Record<string, unknown>[] = [];
    const handler = createReviewConsoleHandler(api, { log: (entry) => logged.push(entry) });
    const answer = await handler(
      apiGatewayEvent({ method: "GET", path: "/api/queue", claims: cognitoClaims() }),
    );
    assert.equal(answer.statusCode, 500);
    assert.doesNotMatch(answer.body ?? "", /arn:aws|Provisioned/);
    assert.match(String(logged[0]?.error), /ProvisionedThroughputExceeded/);
  });

  it("uses the group name the infra creates", () => {
    assert.equal(REVIEWERS_GROUP, REVIEWERS_GROUP_NAME);
  });
});

describe("the deployed function's table access", () => {
  it("makes no DynamoDB call beyond the actions the CDK app grants it", async () => {
    // What the Lambda bundle really contains (tree-shaken as esbuild bundles it for Lambda): every
    // DynamoDB command constructed in code reachable from the handler.
    const entry = fileURLToPath(new URL("../../../functions/reviewConsole/handler.ts", import.meta.url));
    const bundle = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      target: "node22",
      packages: "external",
      treeShaking: true,
      logLevel: "silent",
    });
    const text = bundle.outputFiles[0]?.text ?? "";
    // The command classes the bundle imports from the DynamoDB clients (`X` or `X as Y`), counted
    // only where the bundle constructs them (`new Y(`): a module reached through an index may bring
    // an import whose code tree shaking dropped.
    const specifiers = [
      ...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"@aws-sdk\/(?:lib-dynamodb|client-dynamodb)"/g),
    ].flatMap((match) => (match[1] ?? "").split(","));
    const used = new Set<string>();
    for (const specifier of specifiers) {
      const parts = /^\s*(\w+?)(?:Item)?Command(?:\s+as\s+(\w+))?\s*$/.exec(specifier);
      if (parts?.[1] === undefined) continue;
      const local = parts[2] ?? `${parts[1]}${specifier.includes("ItemCommand") ? "Item" : ""}Command`;
      if (new RegExp(`new ${local}\\(`).test(text)) used.add(parts[1]);
    }
    const action: Record<string, string> = {
      Get: "dynamodb:GetItem",
      Put: "dynamodb:PutItem",
      Query: "dynamodb:Query",
      Scan: "dynamodb:Scan",
      Update: "dynamodb:UpdateItem",
      Delete: "dynamodb:DeleteItem",
      BatchGet: "dynamodb:BatchGetItem",
      BatchWrite: "dynamodb:BatchWriteItem",
      // A transaction needs each operation's own action (and ConditionCheckItem): look at it first.
      TransactGet: "a transaction",
      TransactWrite: "a transaction",
    };
    const needed = [...used].map((name) => action[name as string] ?? `unknown ${name}`).sort();
    assert.ok(used.has("Put") && used.has("Get") && used.has("Query"), `found ${[...used].join(", ")}`);
    for (const name of needed)
      assert.ok(
        (REVIEW_CONSOLE_TABLE_ACTIONS as readonly string[]).includes(name),
        `the function calls ${name}; grant it in infra/constructs/ReviewConsoleApi.ts (REVIEW_CONSOLE_TABLE_ACTIONS) or remove the call`,
      );
    assert.ok(!used.has("Scan") && !used.has("Delete"), "no scan or delete");
  });
});
