import type { ReviewConsoleEvent } from "../../../functions/reviewConsole/createReviewConsoleHandler.js";

/**
 * An HTTP API (payload 2.0) event as API Gateway hands it to the function after its JWT
 * authorizer accepted the token: the verified claims under `requestContext.authorizer.jwt.claims`,
 * each as a string (a list claim such as `cognito:groups` arrives as `[a b]`). Without `claims`,
 * the event of a route that has no authorizer.
 */
export function apiGatewayEvent(options: {
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: string;
  base64?: boolean;
  headers?: Record<string, string>;
  claims?: Record<string, string>;
}): ReviewConsoleEvent {
  const event = {
    version: "2.0",
    routeKey: `${options.method} ${options.path}`,
    rawPath: options.path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: { host: "abc123.execute-api.eu-west-1.amazonaws.com", ...options.headers },
    ...(options.query === undefined ? {} : { queryStringParameters: options.query }),
    ...(options.body === undefined
      ? {}
      : {
          body: options.base64 === true ? Buffer.from(options.body).toString("base64") : options.body,
          isBase64Encoded: options.base64 === true,
        }),
    requestContext: {
      accountId: "111122223333",
      apiId: "abc123",
      domainName: "abc123.execute-api.eu-west-1.amazonaws.com",
      domainPrefix: "abc123",
      http: {
        method: options.method,
        path: options.path,
        protocol: "HTTP/1.1",
        sourceIp: "192.0.2.1",
        userAgent: "test",
      },
      requestId: "req-1",
      routeKey: `${options.method} ${options.path}`,
      stage: "$default",
      time: "01/Dec/2026:23:00:00 +0000",
      timeEpoch: 1_796_166_000_000,
      ...(options.claims === undefined
        ? {}
        : {
            authorizer: {
              principalId: "",
              integrationLatency: 0,
              jwt: { claims: options.claims, scopes: null },
            },
          }),
    },
    isBase64Encoded: options.base64 === true,
  };
  return event as unknown as ReviewConsoleEvent;
}

/** What API Gateway passes for a Cognito ID token's claims (lists as `[a b]`, numbers as text). */
export function cognitoClaims(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    sub: "8f1c2b9e-0000-4000-8000-000000000001",
    email: "ana@example.com",
    "cognito:username": "8f1c2b9e-0000-4000-8000-000000000001",
    "cognito:groups": "[reviewers]",
    token_use: "id",
    ...overrides,
  };
}
