/**
 * The local review console answers the HTTP API routes the synthesized template declares, and API
 * Gateway's 404 for anything else: a route removed from the template is missing locally too.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { loadPolicies } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../functions/reviewConsole/index.js";
import { matchTemplateRoute } from "../../../local/services/matchTemplateRoute.js";
import { type ReviewServer, startReviewServer } from "../../../local/services/startReviewServer.js";
import type { CfnTemplate } from "../../../local/stack/cfnTemplate.js";
import type { RoutePlan } from "../../../local/stack/LocalStackPlan.js";
import { loadStackTemplate } from "../../../local/stack/loadStackTemplate.js";
import { readStackTemplate } from "../../../local/stack/readStackTemplate.js";

const POLICIES = new URL("../../../policies", import.meta.url).pathname;
const NOT_FOUND = JSON.stringify({ message: "Not Found" });

/** A request path for a route key's path: each `{param}` filled with a value of its own. */
const pathOf = (routeKey: string) =>
  (routeKey.split(" ")[1] ?? "").replaceAll(/\{[^}]+\}/g, (param) =>
    param === "{policy}" ? "ticket-routing" : "T-1",
  );

/** The template's routes, each as its method and a request path. */
const requestsOf = (template: CfnTemplate) =>
  Object.values(template.Resources)
    .filter((resource) => resource.Type === "AWS::ApiGatewayV2::Route")
    .map((resource) => String(resource.Properties?.RouteKey))
    .map((routeKey) => ({ routeKey, method: routeKey.split(" ")[0] ?? "", path: pathOf(routeKey) }));

describe("the local review console's routes", () => {
  let template: CfnTemplate;
  let client: DynamoDBDocumentClient;
  let policies: Awaited<ReturnType<typeof loadPolicies>>;
  const servers: ReviewServer[] = [];

  before(async () => {
    template = await loadStackTemplate();
    policies = await loadPolicies(POLICIES);
    // Nothing listens on port 9: a route that reaches the table fails there (500), past the routing.
    client = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: "us-east-1",
        endpoint: "http://127.0.0.1:9",
        credentials: { accessKeyId: "local", secretAccessKey: "local" },
        maxAttempts: 1,
      }),
    );
  });

  after(async () => {
    for (const server of servers) await server.stop();
    client?.destroy();
  });

  async function serve(routes: RoutePlan[]): Promise<ReviewServer> {
    const server = await startReviewServer({
      api: new ReviewApi({ client, tableName: "outcomes", policies }),
      routes,
      defaultReviewer: "owner",
    });
    servers.push(server);
    return server;
  }

  async function ask(server: ReviewServer, method: string, path: string) {
    const answer = await fetch(new URL(path, server.url), {
      method,
      headers: { "content-type": "application/json" },
      ...(method === "POST" ? { body: JSON.stringify({ answers: {}, expect_updated_at: "x" }) } : {}),
    });
    return { status: answer.status, body: await answer.text() };
  }

  it("answers every route of the template, and API Gateway's 404 for a path it lacks", async () => {
    const server = await serve(readStackTemplate(template).consoleRoutes);
    const requests = requestsOf(template);
    assert.ok(requests.length >= 9, `${requests.length} routes`);

    for (const { routeKey, method, path } of requests) {
      const answer = await ask(server, method, path);
      assert.notEqual(answer.body, NOT_FOUND, `${routeKey}: ${answer.status} ${answer.body}`);
    }
    assert.deepEqual(await ask(server, "GET", "/api/nothing-here"), { status: 404, body: NOT_FOUND });
    assert.deepEqual(await ask(server, "DELETE", "/api/me"), { status: 404, body: NOT_FOUND });
  });

  it("answers 404 for a route removed from the template, while the others answer", async () => {
    const edited = structuredClone(template);
    const [removedId, removed] =
      Object.entries(edited.Resources).find(
        ([, resource]) =>
          resource.Type === "AWS::ApiGatewayV2::Route" &&
          resource.Properties?.RouteKey === "GET /api/policies/{policy}/drift",
      ) ?? [];
    assert.ok(removedId !== undefined && removed !== undefined, "the template declares the drift route");
    delete edited.Resources[removedId];
    const server = await serve(readStackTemplate(edited).consoleRoutes);

    assert.deepEqual(await ask(server, "GET", "/api/policies/ticket-routing/drift"), {
      status: 404,
      body: NOT_FOUND,
    });
    for (const { routeKey, method, path } of requestsOf(edited)) {
      const answer = await ask(server, method, path);
      assert.notEqual(answer.body, NOT_FOUND, `${routeKey}: ${answer.status} ${answer.body}`);
    }
  });
});

describe("matchTemplateRoute", () => {
  const route = (routeKey: string): RoutePlan => ({ logicalId: routeKey, routeKey });

  it("matches the method and each segment, a parameter standing for one non-empty segment", () => {
    const routes = [route("GET /api/items/{policy}/{id}"), route("POST /api/items/{policy}/{id}/review")];

    assert.equal(matchTemplateRoute(routes, "GET", "/api/items/p/i%2F1")?.routeKey, routes[0]?.routeKey);
    assert.equal(matchTemplateRoute(routes, "GET", "/api/items/p/i/review"), undefined);
    assert.equal(matchTemplateRoute(routes, "POST", "/api/items/p/i/review")?.routeKey, routes[1]?.routeKey);
    assert.equal(matchTemplateRoute(routes, "POST", "/api/items/p/i"), undefined);
    assert.equal(matchTemplateRoute(routes, "GET", "/api/items/p"), undefined);
  });

  it("matches ANY for every method, a greedy last parameter for one segment or more, $default for all", () => {
    assert.ok(matchTemplateRoute([route("ANY /api/{proxy+}")], "DELETE", "/api/a/b/c"));
    assert.equal(matchTemplateRoute([route("ANY /api/{proxy+}")], "GET", "/api"), undefined);
    assert.ok(matchTemplateRoute([route("$default")], "PATCH", "/anything"));
    assert.equal(matchTemplateRoute([], "GET", "/api/me"), undefined);
  });
});
