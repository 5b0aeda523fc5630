import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { IntakeIdempotency } from "../../../core/intake/index.js";
import { createFrontDoorHandler } from "../../../functions/frontDoor/index.js";
import { MemoryIdempotencyStore } from "../../support/MemoryIdempotencyStore.js";

const CONTEXT = { getRemainingTimeInMillis: () => 10_000 } as Context;

function handlerWithSends() {
  const sent: string[] = [];
  const handler = createFrontDoorHandler(
    {
      sqs: {
        send: async (command: SendMessageBatchCommand) => {
          const entries = command.input.Entries ?? [];
          sent.push(...entries.map((entry) => entry.MessageBody ?? ""));
          return { Successful: entries.map((entry) => ({ Id: entry.Id, MessageId: "m" })) };
        },
      } as never,
      queueUrls: { interactive: "qi", bulk: "qb" },
      policyNames: ["ticket-routing"],
      laneOfPolicy: () => undefined,
      webhookSecret: undefined,
      idempotency: new IntakeIdempotency({ persistenceStore: new MemoryIdempotencyStore() }),
    },
    { log: () => undefined },
  );
  return { handler, sent };
}

/** A REST API proxy event for `POST /v1/work-items` (stage `live`, a custom domain's base path in `path`). */
function event(overrides: Partial<APIGatewayProxyEvent>, userArn: string | null): APIGatewayProxyEvent {
  return {
    httpMethod: "POST",
    resource: "/v1/work-items",
    path: "/decisions/v1/work-items",
    headers: { "Content-Type": "application/json", "Idempotency-Key": "k-1" },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    isBase64Encoded: false,
    body: JSON.stringify({ id: "T-1", policy: "ticket-routing", state: "text" }),
    requestContext: { requestId: "r-1", identity: { userArn } } as never,
    ...overrides,
  };
}

describe("createFrontDoorHandler", () => {
  it("takes the SigV4 caller from API Gateway's identity and the route from the resource, headers in any case", async () => {
    const { handler, sent } = handlerWithSends();

    const answer = await handler(event({}, "arn:aws:iam::111122223333:role/helpdesk"), CONTEXT);

    assert.equal(answer.statusCode, 202, answer.body);
    assert.equal(JSON.parse(answer.body).idempotency_key, "k-1", "Idempotency-Key read whatever its case");
    assert.equal(answer.headers?.["content-type"], "application/json; charset=utf-8");
    assert.equal(sent.length, 1);
  });

  it("refuses the SigV4 route with 401 when API Gateway named no caller", async () => {
    const { handler, sent } = handlerWithSends();

    const answer = await handler(event({}, null), CONTEXT);

    assert.equal(answer.statusCode, 401);
    assert.equal(sent.length, 0);
  });

  it("refuses a base64 body that is not UTF-8 with 400", async () => {
    const { handler } = handlerWithSends();

    const answer = await handler(
      event(
        { isBase64Encoded: true, body: Buffer.from([0xff, 0xfe]).toString("base64") },
        "arn:aws:iam::1:role/x",
      ),
      CONTEXT,
    );

    assert.equal(answer.statusCode, 400);
  });
});
