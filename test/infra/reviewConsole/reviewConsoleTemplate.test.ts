/**
 * The deployed review console as synthesized: the page on a private bucket behind CloudFront with
 * origin access control and security headers, the HTTP API with every route behind the Cognito JWT
 * authorizer, the function's permissions, the user pool. The synthesized template is what
 * CloudFormation deploys; these tests do not deploy it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Match } from "aws-cdk-lib/assertions";
import { CONSOLE_CONTENT_SECURITY_POLICY } from "../../../console/index.js";
import { shadowPartitionOf } from "../../../contract/index.js";
import { REVIEWERS_GROUP } from "../../../functions/reviewConsole/index.js";
import { readReviewConsoleConfig } from "../../../functions/reviewConsole/readReviewConsoleConfig.js";
import {
  REVIEW_CONSOLE_ROUTES,
  REVIEW_CONSOLE_TABLE_ACTIONS,
  readConsoleSite,
} from "../../../infra/index.js";
import { synthVariant } from "../synthVariant.js";

type Resource = { Type: string; Properties: Record<string, unknown> };
// biome-ignore lint/suspicious/noExplicitAny: a synthesized template is JSON of any shape; the assertions below check it.
type Json = any;

const { template, stack } = synthVariant("cpu");

function resources(type: string): [string, Resource][] {
  return Object.entries(template.findResources(type)) as [string, Resource][];
}

function only(type: string): [string, Resource] {
  const found = resources(type);
  assert.equal(found.length, 1, `expected one ${type}, found ${found.length}`);
  return found[0] as [string, Resource];
}

const logicalIdOf = (construct: { node: { defaultChild?: unknown } }): string =>
  stack.getLogicalId(construct.node.defaultChild as Parameters<typeof stack.getLogicalId>[0]);

describe("review console: the page on S3 behind CloudFront", () => {
  const [distributionId, distribution] = only("AWS::CloudFront::Distribution");
  const config = distribution.Properties.DistributionConfig as Record<string, Json>;
  const bucketId = logicalIdOf(stack.reviewConsole.site.bucket);

  it("serves the private bucket through origin access control, index.html at the root", () => {
    const [oacId, oac] = only("AWS::CloudFront::OriginAccessControl");
    assert.deepEqual(oac.Properties.OriginAccessControlConfig, {
      Name: (oac.Properties.OriginAccessControlConfig as { Name: string }).Name,
      OriginAccessControlOriginType: "s3",
      SigningBehavior: "always",
      SigningProtocol: "sigv4",
    });
    assert.equal(config.DefaultRootObject, "index.html");
    const s3Origin = (config.Origins as Json[]).find((origin) => origin.S3OriginConfig !== undefined);
    assert.deepEqual(s3Origin.OriginAccessControlId, { "Fn::GetAtt": [oacId, "Id"] });
    assert.equal(s3Origin.S3OriginConfig.OriginAccessIdentity, "");
    assert.deepEqual(s3Origin.DomainName, { "Fn::GetAtt": [bucketId, "RegionalDomainName"] });

    const bucket = template.toJSON().Resources[bucketId] as Resource;
    assert.deepEqual(bucket.Properties.PublicAccessBlockConfiguration, {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    // Only this distribution may read, and only over TLS.
    template.hasResourceProperties("AWS::S3::BucketPolicy", {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: "Deny",
            Principal: { AWS: "*" },
            Condition: { Bool: { "aws:SecureTransport": "false" } },
          }),
          Match.objectLike({
            Effect: "Allow",
            Action: "s3:GetObject",
            Principal: { Service: "cloudfront.amazonaws.com" },
            Condition: {
              StringEquals: {
                "AWS:SourceArn": Match.objectLike({
                  "Fn::Join": Match.arrayWith([Match.arrayWith([{ Ref: distributionId }])]),
                }),
              },
            },
          }),
        ]),
      },
    });
  });

  it("sends the security headers and the console's CSP on pages and API answers alike", () => {
    const [policyId, policy] = only("AWS::CloudFront::ResponseHeadersPolicy");
    const headers = (policy.Properties.ResponseHeadersPolicyConfig as Record<string, Json>)
      .SecurityHeadersConfig;
    assert.ok(headers.StrictTransportSecurity.AccessControlMaxAgeSec >= 31_536_000);
    assert.equal(headers.StrictTransportSecurity.IncludeSubdomains, true);
    assert.equal(headers.StrictTransportSecurity.Override, true);
    assert.deepEqual(headers.ContentTypeOptions, { Override: true });
    assert.deepEqual(headers.FrameOptions, { FrameOption: "DENY", Override: true });
    assert.deepEqual(headers.ReferrerPolicy, { ReferrerPolicy: "no-referrer", Override: true });
    const csp = headers.ContentSecurityPolicy.ContentSecurityPolicy as string;
    assert.equal(headers.ContentSecurityPolicy.Override, true);
    // The same policy the local console sends (the page is written for it).
    assert.equal(csp, CONSOLE_CONTENT_SECURITY_POLICY);
    const directives = new Map(
      csp.split(";").map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    assert.deepEqual(directives.get("script-src"), ["'self'"]);
    assert.deepEqual(directives.get("default-src"), ["'none'"]);
    assert.deepEqual(directives.get("frame-ancestors"), ["'none'"]);
    assert.ok(!csp.includes("unsafe-inline") && !csp.includes("unsafe-eval"), csp);

    const behaviors = [config.DefaultCacheBehavior, ...(config.CacheBehaviors as Json[])];
    assert.equal(behaviors.length, 2);
    for (const behavior of behaviors) assert.deepEqual(behavior.ResponseHeadersPolicyId, { Ref: policyId });
  });

  it("is TLS only: pages redirect to HTTPS, the API refuses plain HTTP, the origin is reached over TLS 1.2", () => {
    assert.equal(config.DefaultCacheBehavior.ViewerProtocolPolicy, "redirect-to-https");
    const api = (config.CacheBehaviors as Json[]).find((behavior) => behavior.PathPattern === "/api/*");
    assert.equal(api.ViewerProtocolPolicy, "https-only");
    const apiOrigin = (config.Origins as Json[]).find((origin) => origin.Id === api.TargetOriginId);
    assert.equal(apiOrigin.CustomOriginConfig.OriginProtocolPolicy, "https-only");
    assert.deepEqual(apiOrigin.CustomOriginConfig.OriginSSLProtocols, ["TLSv1.2"]);
    // The API's answers are keyed by the token and kept for no reviewer to see another's.
    const [cacheId, cache] = only("AWS::CloudFront::CachePolicy");
    assert.deepEqual(api.CachePolicyId, { Ref: cacheId });
    const cacheConfig = cache.Properties.CachePolicyConfig as Record<string, Json>;
    assert.equal(cacheConfig.DefaultTTL, 0);
    assert.deepEqual(cacheConfig.ParametersInCacheKeyAndForwardedToOrigin.HeadersConfig, {
      HeaderBehavior: "whitelist",
      Headers: ["Authorization"],
    });
  });

  it("deploys a page with no inline script, no inline style and no inline handler", () => {
    const site = readConsoleSite();
    assert.deepEqual(site.files, ["app.js", "index.html", "styles.css"]);
    const html = readFileSync(join(site.folder, "index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)];
    assert.ok(scripts.length >= 1);
    for (const [, attributes, body] of scripts) {
      assert.match(attributes ?? "", /\bsrc="\.\/app\.js"/);
      assert.equal((body ?? "").trim(), "", "an inline script");
    }
    assert.equal(
      html.match(/<script\b/gi)?.length,
      scripts.length,
      "every script element is closed and counted",
    );
    assert.doesNotMatch(html, /<style\b/i);
    assert.doesNotMatch(html, /\sstyle\s*=/i);
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i);
    assert.doesNotMatch(html, /javascript:/i);
    const bundle = readFileSync(join(site.folder, "app.js"), "utf8");
    // Nothing fetched from elsewhere at run time: no absolute URL but the sign-in domain (from
    // config.json) and XML namespace names (identifiers, never fetched).
    for (const url of bundle.match(/https?:\/\/[^\s"'`)]+/g) ?? [])
      assert.match(url, /^(https:\/\/\$\{|http:\/\/www\.w3\.org\/)/, `the bundle names ${url}`);
    template.hasResourceProperties("Custom::CDKBucketDeployment", {
      DistributionPaths: ["/*"],
      Prune: true,
    });
  });
});

describe("review console: the HTTP API behind the Cognito JWT authorizer", () => {
  const [authorizerId, authorizer] = only("AWS::ApiGatewayV2::Authorizer");
  const poolId = logicalIdOf(stack.reviewConsole.pool.userPool);
  const clientId = logicalIdOf(stack.reviewConsole.client);
  const [apiId] = only("AWS::ApiGatewayV2::Api");

  it("has a JWT authorizer whose issuer is the user pool and whose audience is the page's client", () => {
    assert.equal(authorizer.Properties.AuthorizerType, "JWT");
    assert.deepEqual(authorizer.Properties.IdentitySource, ["$request.header.Authorization"]);
    const jwt = authorizer.Properties.JwtConfiguration as { Issuer: unknown; Audience: unknown };
    assert.deepEqual(jwt.Audience, [{ Ref: clientId }]);
    assert.deepEqual(jwt.Issuer, {
      "Fn::Join": [
        "",
        [
          "https://cognito-idp.",
          { Ref: "AWS::Region" },
          ".",
          { Ref: "AWS::URLSuffix" },
          "/",
          { Ref: poolId },
        ],
      ],
    });
  });

  it("authorizes every route, has no $default route, and routes only the router's operations", () => {
    const routes = resources("AWS::ApiGatewayV2::Route");
    assert.deepEqual(
      routes.map(([, route]) => route.Properties.RouteKey).sort(),
      REVIEW_CONSOLE_ROUTES.map((route) => `${route.method} ${route.path}`).sort(),
    );
    for (const [id, route] of routes) {
      assert.equal(route.Properties.AuthorizationType, "JWT", id);
      assert.deepEqual(route.Properties.AuthorizerId, { Ref: authorizerId }, id);
      assert.deepEqual(route.Properties.ApiId, { Ref: apiId });
    }
    const [, stage] = only("AWS::ApiGatewayV2::Stage");
    assert.equal(stage.Properties.StageName, "$default");
    assert.ok((stage.Properties.AccessLogSettings as { DestinationArn?: unknown }).DestinationArn);
    assert.ok(
      (stage.Properties.DefaultRouteSettings as { ThrottlingRateLimit: number }).ThrottlingRateLimit > 0,
    );
  });

  it("lets only this API invoke the function, and the function only get, put and query the deployed policies' items", () => {
    const fnId = logicalIdOf(stack.reviewConsole.api.function as never);
    const permissions = resources("AWS::Lambda::Permission").filter(
      ([, permission]) =>
        JSON.stringify(permission.Properties.FunctionName) ===
        JSON.stringify({ "Fn::GetAtt": [fnId, "Arn"] }),
    );
    assert.equal(permissions.length, REVIEW_CONSOLE_ROUTES.length);
    for (const [, permission] of permissions) {
      assert.equal(permission.Properties.Principal, "apigateway.amazonaws.com");
      assert.equal(permission.Properties.Action, "lambda:InvokeFunction");
      assert.ok(JSON.stringify(permission.Properties.SourceArn).includes(`{"Ref":"${apiId}"}`));
    }

    const roleId = logicalIdOf(stack.reviewConsole.api.function.role as never);
    const statements = resources("AWS::IAM::Policy")
      .filter(([, policy]) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Json[] }).Statement);
    const tableId = logicalIdOf(stack.outcomes.table);
    const dynamo = statements.filter((statement) =>
      [statement.Action].flat().some((action: string) => action.startsWith("dynamodb:")),
    );
    assert.deepEqual(dynamo, [
      {
        Action: [...REVIEW_CONSOLE_TABLE_ACTIONS],
        Effect: "Allow",
        Resource: { "Fn::GetAtt": [tableId, "Arn"] },
        Condition: {
          "ForAllValues:StringEquals": {
            // Each policy's outcomes and its shadow records (the shadow panel reads them).
            "dynamodb:LeadingKeys": [
              ...stack.policies.map((p) => p.name),
              ...stack.policies.map((p) => shadowPartitionOf(p.name)),
            ],
          },
        },
      },
      {
        Action: "dynamodb:Query",
        Effect: "Allow",
        Resource: { "Fn::Join": ["", [{ "Fn::GetAtt": [tableId, "Arn"] }, "/index/by-status"]] },
      },
    ]);
    for (const statement of statements) {
      for (const action of [statement.Action].flat() as string[]) assert.ok(!action.includes("*"), action);
    }
  });

  it("gives the function an environment its own reader accepts", () => {
    const fnId = logicalIdOf(stack.reviewConsole.api.function as never);
    const fn = template.toJSON().Resources[fnId] as Resource;
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    const env = Object.fromEntries(
      Object.entries(variables).map(([name, value]) => [
        name,
        typeof value === "string" ? value : `ref-${name}`,
      ]),
    );
    assert.deepEqual(readReviewConsoleConfig(env, "/unused"), {
      outcomesTable: "ref-OUTCOMES_TABLE",
      policyDir: "/var/task/policies",
    });
    assert.deepEqual(variables.OUTCOMES_TABLE, { Ref: logicalIdOf(stack.outcomes.table) });
    assert.equal(fn.Properties.Runtime, "nodejs24.x");
  });

  it("has a user pool without self sign-up, the reviewers group, and a public page client with the code flow only", () => {
    const [, pool] = only("AWS::Cognito::UserPool");
    assert.deepEqual(pool.Properties.AdminCreateUserConfig, { AllowAdminCreateUserOnly: true });
    assert.equal(pool.Properties.MfaConfiguration, "ON");
    const [, group] = only("AWS::Cognito::UserPoolGroup");
    assert.equal(group.Properties.GroupName, REVIEWERS_GROUP);
    const [, client] = only("AWS::Cognito::UserPoolClient");
    assert.equal(client.Properties.GenerateSecret, false);
    assert.deepEqual(client.Properties.AllowedOAuthFlows, ["code"]);
    assert.deepEqual(client.Properties.ExplicitAuthFlows, ["ALLOW_REFRESH_TOKEN_AUTH"]);
    const [distributionId] = only("AWS::CloudFront::Distribution");
    assert.deepEqual(client.Properties.CallbackURLs, [
      { "Fn::Join": ["", ["https://", { "Fn::GetAtt": [distributionId, "DomainName"] }, "/"]] },
    ]);
  });

  it("tells the page identifiers only: the API's base, the sign-in domain, the client id and the page's URL", () => {
    const config = stack.resolve(stack.reviewConsole.pageConfig) as Record<string, Json>;
    assert.deepEqual(Object.keys(config).sort(), ["api", "auth"]);
    assert.equal(config.api, "");
    assert.deepEqual(Object.keys(config.auth).sort(), ["clientId", "domain", "redirectUri", "scopes"]);
    assert.deepEqual(config.auth.clientId, { Ref: clientId });
    assert.doesNotMatch(JSON.stringify(config), /secret|password/i);
  });

  it("outputs the console's URL and the user pool", () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    const [distributionId] = only("AWS::CloudFront::Distribution");
    assert.deepEqual(outputs.ReviewConsoleUrl?.Value, {
      "Fn::Join": ["", ["https://", { "Fn::GetAtt": [distributionId, "DomainName"] }, "/"]],
    });
    assert.deepEqual(outputs.ReviewerUserPoolId?.Value, { Ref: poolId });
  });
});
