/**
 * The deployed console's API refuses requests without a valid token and takes the reviewer only
 * from the token. Tokens are signed with a test key pair (jose); the authorizer's issuer and
 * audience are read from the synthesized template (with stand-ins for the region and the ids only
 * a deployment gives). What is verified where:
 * - API Gateway does the JWT check in AWS. `checkLikeApiGateway` reproduces the checks AWS
 *   documents for HTTP API JWT authorizers against the synthesized configuration; it is not API
 *   Gateway, and this test does not reach AWS.
 * - The handler (`functions/reviewConsole/createReviewConsoleHandler.ts`, the real one) then gets the claims
 *   as API Gateway passes them, and decides who reviews and whether the group may.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { exportJWK, generateKeyPair, type JSONWebKeySet, SignJWT, UnsecuredJWT } from "jose";
import { createReviewConsoleHandler } from "../../../functions/reviewConsole/createReviewConsoleHandler.js";
import type { ReviewApi, Reviewer } from "../../../functions/reviewConsole/index.js";
import { apiGatewayEvent } from "../../functions/reviewConsole/apiGatewayEvent.js";
import { synthVariant } from "../synthVariant.js";
import { checkLikeApiGateway, type JwtAuthorizerConfig, TokenRefusedError } from "./apiGatewayJwtCheck.js";
import { resolveTemplateValue } from "./templateValue.js";

const { template, stack } = synthVariant("cpu");

const REGION = "eu-west-1";
const POOL_ID = `${REGION}_TestPool1`;
const CLIENT_ID = "4testclientid0000000000000";

/** The authorizer's issuer and audience as the template will produce them once deployed. */
function authorizerConfig(): JwtAuthorizerConfig {
  const [authorizer] = Object.values(template.findResources("AWS::ApiGatewayV2::Authorizer")) as {
    Properties: { JwtConfiguration: { Issuer: unknown; Audience: unknown[] } };
  }[];
  assert.ok(authorizer);
  const idOf = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as Parameters<typeof stack.getLogicalId>[0]);
  const standIns = {
    "AWS::Region": REGION,
    "AWS::URLSuffix": "amazonaws.com",
    [idOf(stack.reviewConsole.pool.userPool)]: POOL_ID,
    [idOf(stack.reviewConsole.client)]: CLIENT_ID,
  };
  return {
    issuer: resolveTemplateValue(authorizer.Properties.JwtConfiguration.Issuer, standIns),
    audience: authorizer.Properties.JwtConfiguration.Audience.map((value) =>
      resolveTemplateValue(value, standIns),
    ),
  };
}

const config = authorizerConfig();
const { publicKey, privateKey } = await generateKeyPair("RS256");
const other = await generateKeyPair("RS256");
const jwks: JSONWebKeySet = {
  keys: [{ ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" }],
};

interface TokenOptions {
  issuer?: string;
  audience?: string;
  groups?: string[];
  expiresIn?: string | number;
  key?: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
  email?: string;
  claims?: Record<string, unknown>;
}

/** An ID token shaped as Cognito issues them, signed with the test key. */
async function idToken(options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({
    "cognito:groups": options.groups ?? ["reviewers"],
    email: options.email ?? "ana@example.com",
    "cognito:username": "8f1c2b9e-0000-4000-8000-000000000001",
    token_use: "id",
    ...options.claims,
  })
    .setProtectedHeader({ alg: "RS256", kid: "test-key" })
    .setSubject("8f1c2b9e-0000-4000-8000-000000000001")
    .setIssuer(options.issuer ?? config.issuer)
    .setAudience(options.audience ?? CLIENT_ID)
    .setIssuedAt(now - 60);
  jwt.setExpirationTime(options.expiresIn ?? now + 3600);
  return jwt.sign(options.key ?? privateKey);
}

/** A fake ReviewApi: records who the router says reviews (the router is the real one). */
function recordingApi(): { api: ReviewApi; reviewers: Reviewer[] } {
  const reviewers: Reviewer[] = [];
  const api = {
    policyNames: () => ["ticket-routing"],
    queue: async () => ({ items: [] }),
    review: async (_policy: string, _id: string, _body: unknown, reviewer: Reviewer) => {
      reviewers.push(reviewer);
      return { reviewed: true };
    },
  };
  return { api: api as unknown as ReviewApi, reviewers };
}

/** One request as it goes through AWS: the authorizer (reproduced), then the real handler. */
async function request(
  authorization: string | undefined,
  options: { method?: string; path?: string; body?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; reviewers: Reviewer[] }> {
  const { api, reviewers } = recordingApi();
  let claims: Record<string, string>;
  try {
    claims = await checkLikeApiGateway(authorization, config, jwks);
  } catch (error) {
    if (error instanceof TokenRefusedError)
      return { status: 401, body: { message: "Unauthorized" }, reviewers };
    throw error;
  }
  const handler = createReviewConsoleHandler(api);
  const answer = await handler(
    apiGatewayEvent({
      method: options.method ?? "GET",
      path: options.path ?? "/api/me",
      ...(options.body === undefined ? {} : { body: options.body }),
      headers: { authorization: authorization ?? "" },
      claims,
    }),
  );
  return { status: answer.statusCode ?? 0, body: JSON.parse(answer.body ?? "{}"), reviewers };
}

describe("the deployed console's API and its tokens", () => {
  it("reads the authorizer's issuer (the user pool) and audience (the page client) from the template", () => {
    assert.equal(config.issuer, `https://cognito-idp.${REGION}.amazonaws.com/${POOL_ID}`);
    assert.deepEqual(config.audience, [CLIENT_ID]);
  });

  it("accepts a reviewer's valid token and names the reviewer from it", async () => {
    const answer = await request(`Bearer ${await idToken()}`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { reviewer: { name: "ana@example.com", source: "token" } });
  });

  it("refuses a request without a token", async () => {
    assert.equal((await request(undefined)).status, 401);
    assert.equal((await request("")).status, 401);
  });

  it("refuses an expired token", async () => {
    const now = Math.floor(Date.now() / 1000);
    assert.equal((await request(`Bearer ${await idToken({ expiresIn: now - 1 })}`)).status, 401);
  });

  it("refuses a token for another audience (another app client)", async () => {
    assert.equal((await request(`Bearer ${await idToken({ audience: "another-client" })}`)).status, 401);
  });

  it("refuses a token from another issuer (another user pool, or another region)", async () => {
    for (const issuer of [
      `https://cognito-idp.${REGION}.amazonaws.com/${REGION}_OtherPool`,
      `https://cognito-idp.us-east-1.amazonaws.com/${POOL_ID}`,
    ])
      assert.equal((await request(`Bearer ${await idToken({ issuer })}`)).status, 401, issuer);
  });

  it("refuses a token signed by another key, and an unsigned one (alg none)", async () => {
    assert.equal((await request(`Bearer ${await idToken({ key: other.privateKey })}`)).status, 401);
    const unsigned = new UnsecuredJWT({ "cognito:groups": ["reviewers"], email: "ana@example.com" })
      .setIssuer(config.issuer)
      .setAudience(CLIENT_ID)
      .setExpirationTime("1h")
      .encode();
    assert.equal((await request(`Bearer ${unsigned}`)).status, 401);
  });

  it("passes a valid token outside the reviewers group to the function, which refuses it (403)", async () => {
    for (const groups of [["admins"], []]) {
      const answer = await request(`Bearer ${await idToken({ groups })}`, { path: "/api/queue" });
      assert.equal(answer.status, 403, JSON.stringify(groups));
    }
  });

  it("records the review under the token's reviewer, whatever the body says", async () => {
    const body = JSON.stringify({
      answers: { queue: "billing" },
      expect_updated_at: "2026-12-01T22:00:00.000Z",
      by: "mallory@example.com",
    });
    const answer = await request(`Bearer ${await idToken({ email: "bo@example.com" })}`, {
      method: "POST",
      path: "/api/items/ticket-routing/T-1/review",
      body,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.reviewers, [{ name: "bo@example.com", source: "token" }]);
  });
});
