/**
 * The console's routes as API Gateway will have them (the synthesized template) against what the
 * function serves (the router's behaviour, asked) and what the page calls (its source): a route the
 * template lacks is API Gateway's 404 on AWS, whatever the router serves.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ReviewApi } from "../../../core/review/ReviewApi.js";
import { routeReviewRequest } from "../../../core/review/routeReviewRequest.js";
import { consolePageCalls } from "../../../lab/rehearsal/consolePageCalls.js";
import { synthVariant } from "../synthVariant.js";

const templateRoutes = Object.values(
  synthVariant("cpu").template.findResources("AWS::ApiGatewayV2::Route"),
).map((route) => {
  const [method = "", path = ""] = String(route.Properties.RouteKey).split(" ");
  return { method, segments: path.split("/").filter((part) => part.length > 0) };
});

/** A ReviewApi whose every operation answers: the router's own behaviour decides 404. */
const answeringApi = new Proxy(
  {},
  { get: (_target, name) => (name === "then" ? undefined : () => ({ name })) },
) as ReviewApi;

const asPattern = (segments: readonly string[]) =>
  `/${segments.map((segment) => (segment.startsWith("{") ? "{}" : segment)).join("/")}`;

async function routerServes(method: string, segments: readonly string[]): Promise<boolean> {
  const path = `/${segments.map((segment) => (segment.startsWith("{") ? "x" : segment)).join("/")}`;
  const answer = await routeReviewRequest(answeringApi, {
    method,
    path,
    query: {},
    body: JSON.stringify({ answers: { q: "a" }, expect_updated_at: "2026-01-01T00:00:00Z" }),
    reviewer: { id: "r-1", name: "Reviewer" } as never,
  });
  return !(answer.status === 404 && /no such API route/.test(JSON.stringify(answer.body)));
}

describe("the review console's routes", () => {
  it("declares on API Gateway every route the page calls", () => {
    const calls = consolePageCalls();
    assert.ok(calls.length >= 7, `page calls found: ${calls.length}`);
    const declared = new Set(templateRoutes.map((route) => `${route.method} ${asPattern(route.segments)}`));
    const missing = calls.filter((call) => !declared.has(`${call.method} ${asPattern(call.segments)}`));
    assert.deepEqual(
      missing.map((call) => `${call.method} ${asPattern(call.segments)} (${call.caller})`),
      [],
      "the page calls routes API Gateway would answer 404",
    );
  });

  it("serves every route the page calls, and every declared route", async () => {
    const asked = [...consolePageCalls(), ...templateRoutes];
    const unserved: string[] = [];
    for (const { method, segments } of asked)
      if (!(await routerServes(method, segments))) unserved.push(`${method} ${asPattern(segments)}`);
    assert.deepEqual(unserved, []);
  });

  it("declares no route beyond the ones the router serves (each template route is served)", async () => {
    assert.ok(templateRoutes.length > 0);
    for (const route of templateRoutes) assert.ok(await routerServes(route.method, route.segments));
    // And none twice.
    const keys = templateRoutes.map((route) => `${route.method} ${asPattern(route.segments)}`);
    assert.equal(new Set(keys).size, keys.length);
  });
});
