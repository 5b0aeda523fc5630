/** IAM enforced on a client: an allowed call goes on and is counted, a refused one fails as AWS fails it. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { AccessDeniedException } from "../../../local/iam/AccessDeniedException.js";
import type { IamAuthorizationRequest } from "../../../local/iam/LocalIam.js";
import { LocalIam } from "../../../local/iam/LocalIam.js";
import type { CfnTemplate } from "../../../local/iam/TemplateResolver.js";
import { TEMPLATE } from "./iamTemplate.js";

/** The test template with a function and its role (the grants are the test authorizer's). */
const template: CfnTemplate = {
  Resources: {
    ...TEMPLATE.Resources,
    ReviewConsoleApiHandlerRole1234: { Type: "AWS::IAM::Role", Properties: { RoleName: "console-role" } },
    ReviewConsoleApiHandlerFunction5678: {
      Type: "AWS::Lambda::Function",
      Properties: {
        FunctionName: "console-api",
        Role: { "Fn::GetAtt": ["ReviewConsoleApiHandlerRole1234", "Arn"] },
      },
    },
  },
};

/** Answers every call that got past the authorization without a network: `{}`. */
function offline<C extends { middlewareStack: { add(middleware: never, options: never): void } }>(
  client: C,
): C {
  (client.middlewareStack as { add(middleware: unknown, options: unknown): void }).add(
    () => async () => ({ output: { $metadata: {} }, response: {} }),
    { step: "build", name: "offline" },
  );
  return client;
}

describe("LocalIam", () => {
  const asked: IamAuthorizationRequest[] = [];
  const iam = new LocalIam(
    {
      template,
      authorizer: {
        authorize: (request) => {
          asked.push(request);
          // Allows the policy ticket-routing's partition only, as a LeadingKeys grant would.
          const keys = request.context["dynamodb:LeadingKeys"];
          return Array.isArray(keys) && keys.every((key) => key === "ticket-routing")
            ? { allowed: true }
            : { allowed: false, nearMiss: { Action: request.action } };
        },
      },
    },
    { tables: { outcomes: "Outcomes" }, queues: {}, buckets: { ingest: "Bucket" }, endpoints: {} },
  );
  const client = iam.authorize(
    offline(
      new DynamoDBClient({ region: "us-east-1", credentials: { accessKeyId: "a", secretAccessKey: "b" } }),
    ),
    "reviewConsole",
  );

  it("lets an allowed call through, counted per function and action, as the function's role", async () => {
    await client.send(
      new PutItemCommand({
        TableName: "outcomes",
        Item: { policy: { S: "ticket-routing" }, id: { S: "1" } },
      }),
    );
    // A document client on the same client goes through the same check.
    await DynamoDBDocumentClient.from(client).send(
      new PutCommand({ TableName: "outcomes", Item: { policy: "ticket-routing", id: "2" } }),
    );

    assert.deepEqual(iam.ledger.snapshot().allowed, { reviewConsole: { "dynamodb:PutItem": 2 } });
    assert.equal(asked[0]?.function.roleLogicalId, "ReviewConsoleApiHandlerRole1234");
    assert.equal(asked[1]?.context["dynamodb:LeadingKeys"]?.[0], "ticket-routing");
  });

  it("refuses a denied call with AccessDeniedException naming the action and the resource, and records it", async () => {
    const refused = await client
      .send(new PutItemCommand({ TableName: "outcomes", Item: { policy: { S: "other" }, id: { S: "1" } } }))
      .then(
        () => undefined,
        (error: unknown) => error,
      );

    assert.ok(refused instanceof AccessDeniedException);
    assert.equal(refused.name, "AccessDeniedException");
    assert.equal(refused.$fault, "client");
    assert.equal(refused.$metadata.httpStatusCode, 400);
    const table = iam.names.tableArn("outcomes");
    assert.equal(
      refused.message,
      `User: arn:aws:sts::111122223333:assumed-role/console-role/console-api is not authorized to perform: dynamodb:PutItem on resource: ${table} because no identity-based policy allows the dynamodb:PutItem action`,
    );
    await client
      .send(new PutItemCommand({ TableName: "outcomes", Item: { policy: { S: "other" }, id: { S: "2" } } }))
      .catch(() => undefined);
    assert.deepEqual(iam.ledger.snapshot().denied, [
      {
        function: "reviewConsole",
        action: "dynamodb:PutItem",
        resource: table,
        near_miss: { Action: "dynamodb:PutItem" },
        count: 2,
      },
    ]);
    assert.equal(iam.ledger.snapshot().allowed.reviewConsole?.["dynamodb:PutItem"], 2);
  });

  it("refuses an S3 call as S3 does: AccessDenied, 403", async () => {
    const s3 = iam.authorize(
      offline(
        new S3Client({
          region: "us-east-1",
          forcePathStyle: true,
          credentials: { accessKeyId: "a", secretAccessKey: "b" },
        }),
      ),
      "reviewConsole",
    );
    const refused = await s3.send(new PutObjectCommand({ Bucket: "ingest", Key: "k", Body: "x" })).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof AccessDeniedException);
    assert.equal(refused.name, "AccessDenied");
    assert.equal(refused.$metadata.httpStatusCode, 403);
    assert.match(refused.message, /on resource: "arn:aws:s3:::decisions-bucket-[0-9a-f]{12}\/k" because/);
  });

  it("refuses to authorize a client as a function the template does not hold", () => {
    assert.throws(() => iam.forFunction("frontDoor"), /the template has no frontDoor function/);
  });
});
