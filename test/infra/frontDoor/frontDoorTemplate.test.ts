/**
 * The front door as synthesized, on a stack of its own (two lane queues and the construct, with
 * cdk-nag's AwsSolutions pack): the REST API's routes as the router serves them, their
 * authorization and API keys, the Lambda proxy integration, throttling of the stage and of each
 * caller, the access log, and the function's grants (send to the lane queues only; the
 * idempotency table's item actions; the secret). The template is what CloudFormation deploys;
 * nothing here deploys it.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { App, Stack, Validations } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { AwsSolutionsChecks } from "cdk-nag";
import { INTAKE_ROUTES } from "../../../contract/intake/index.js";
import { FRONT_DOOR_TABLE_ACTIONS, FrontDoor } from "../../../infra/constructs/FrontDoor.js";
import { CDK_JSON_FEATURE_FLAGS, PROJECT_ROOT } from "../synthDecisionsStack.js";

// biome-ignore lint/suspicious/noExplicitAny: a synthesized template is JSON of any shape; the assertions below check it.
type Json = any;

const outdir = mkdtempSync(join(tmpdir(), "front-door-cdk-"));
const app = new App({ outdir, context: { ...CDK_JSON_FEATURE_FLAGS, "aws:cdk:bundling-stacks": [] } });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
const stack = new Stack(app, "FrontDoorOnly", { env: { account: "111122223333", region: "eu-west-1" } });
const queue = (id: string) => {
  const dlq = new Queue(stack, `${id}Dlq`, { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
  return new Queue(stack, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
  });
};
const queues = { interactive: queue("Interactive"), bulk: queue("Bulk") };
const frontDoor = new FrontDoor(stack, "FrontDoor", {
  entry: join(PROJECT_ROOT, "functions", "frontDoor", "handler.ts"),
  projectRoot: PROJECT_ROOT,
  queues,
  memorySize: 512,
  logRetention: RetentionDays.ONE_MONTH,
});
let synthError: Error | undefined;
try {
  app.synth();
} catch (error) {
  synthError = error as Error;
}
const template = Template.fromStack(stack);
const resources = (type: string): [string, Json][] => Object.entries(template.findResources(type));
const idOf = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as Parameters<typeof stack.getLogicalId>[0]);

after(() => rmSync(outdir, { recursive: true, force: true }));

describe("the front door's template", () => {
  it("passes cdk-nag's AwsSolutions checks (its acknowledgements give reasons)", () => {
    const reportPath = join(outdir, "validation-report.json");
    const report = existsSync(reportPath) ? readFileSync(reportPath, "utf8") : "";
    assert.equal(synthError, undefined, `${synthError?.message}\n${report}`);
  });

  it("declares each route the router serves, with its authorization and API key", () => {
    const pathOf = new Map<string, string>();
    for (const [id, resource] of resources("AWS::ApiGateway::Resource"))
      pathOf.set(id, resource.Properties.PathPart);
    const parentOf = new Map(
      resources("AWS::ApiGateway::Resource").map(([id, resource]) => [id, resource.Properties.ParentId.Ref]),
    );
    const fullPath = (id: string): string => {
      const parent = parentOf.get(id);
      return `${parent === undefined ? "" : fullPath(parent)}/${pathOf.get(id)}`;
    };
    const methods = resources("AWS::ApiGateway::Method").map(([, method]) => ({
      method: method.Properties.HttpMethod,
      path: fullPath(method.Properties.ResourceId.Ref),
      auth: method.Properties.AuthorizationType,
      apiKey: method.Properties.ApiKeyRequired ?? false,
      integration: method.Properties.Integration.Type,
      target: JSON.stringify(method.Properties.Integration.Uri),
    }));
    const expected = INTAKE_ROUTES.map((route) => ({
      method: route.method,
      path: route.path,
      auth: route.auth === "iam" ? "AWS_IAM" : "NONE",
      apiKey: route.auth !== "none",
      integration: "AWS_PROXY",
    }));
    assert.deepEqual(
      methods.map(({ target: _, ...rest }) => rest).sort((a, b) => a.path.localeCompare(b.path)),
      expected.sort((a, b) => a.path.localeCompare(b.path)),
    );
    const fnId = idOf(frontDoor.function as never);
    for (const method of methods)
      assert.match(method.target, new RegExp(fnId), "each route reaches the front door's function");
  });

  it("throttles the stage and each caller (usage plan, one API key per caller) and writes a JSON access log", () => {
    const [[, stage]] = resources("AWS::ApiGateway::Stage") as [[string, Json]];
    assert.deepEqual(
      stage.Properties.MethodSettings.map((setting: Json) => [
        setting.ThrottlingRateLimit,
        setting.ThrottlingBurstLimit,
      ]),
      [[50, 100]],
    );
    assert.match(stage.Properties.AccessLogSetting.Format, /"caller":"\$context\.identity\.userArn"/);
    assert.ok(stage.Properties.AccessLogSetting.DestinationArn, "the access log has a destination");
    const [[, plan]] = resources("AWS::ApiGateway::UsagePlan") as [[string, Json]];
    assert.deepEqual(plan.Properties.Throttle, { RateLimit: 10, BurstLimit: 20 });
    assert.equal(resources("AWS::ApiGateway::UsagePlanKey").length, 1);
  });

  it("lets the function send only to the lane queues, keep answers in its table and read the secret", () => {
    const statements = resources("AWS::IAM::Policy").flatMap(
      ([, policy]) => policy.Properties.PolicyDocument.Statement,
    );
    const sqs = statements.filter((statement: Json) =>
      [statement.Action].flat().some((action: string) => action.startsWith("sqs:")),
    );
    assert.deepEqual(
      [...new Set(sqs.flatMap((statement: Json) => [statement.Action].flat()))].sort(),
      ["sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"],
      "sending, and nothing that reads, deletes or purges",
    );
    assert.deepEqual(
      sqs
        .flatMap((statement: Json) =>
          [statement.Resource].flat().map((resource: Json) => resource["Fn::GetAtt"][0]),
        )
        .sort(),
      [idOf(queues.bulk), idOf(queues.interactive)].sort(),
      "the two lane queues and nothing else (not their DLQs)",
    );
    const table = statements.find((statement: Json) =>
      JSON.stringify(statement.Resource).includes(idOf(frontDoor.idempotencyTable)),
    );
    assert.deepEqual([table.Action].flat().sort(), [...FRONT_DOOR_TABLE_ACTIONS].sort());
    const secret = statements.find((statement: Json) =>
      [statement.Action].flat().includes("secretsmanager:GetSecretValue"),
    );
    assert.deepEqual(secret.Resource, { Ref: idOf(frontDoor.webhookSecret) });
  });

  it("keeps the secret out of the template: the function gets its ARN and the Parameters and Secrets extension", () => {
    const functions = resources("AWS::Lambda::Function").filter(([, fn]) =>
      JSON.stringify(fn.Properties.Environment ?? {}).includes("WEBHOOK_SECRET_ARN"),
    );
    assert.equal(functions.length, 1);
    const [[, fn]] = functions as [[string, Json]];
    assert.deepEqual(fn.Properties.Environment.Variables.WEBHOOK_SECRET_ARN, {
      Ref: idOf(frontDoor.webhookSecret),
    });
    assert.match(JSON.stringify(fn.Properties.Layers), /AWS-Parameters-and-Secrets-Lambda-Extension/);
    const [[, secret]] = resources("AWS::SecretsManager::Secret") as [[string, Json]];
    assert.equal(secret.Properties.SecretString, undefined, "generated by Secrets Manager, not written here");
    const [[, table]] = resources("AWS::DynamoDB::Table") as [[string, Json]];
    assert.deepEqual(table.Properties.TimeToLiveSpecification, {
      AttributeName: "expiration",
      Enabled: true,
    });
    assert.deepEqual(table.Properties.KeySchema, [{ AttributeName: "id", KeyType: "HASH" }]);
    assert.equal(table.DeletionPolicy, "RetainExceptOnCreate");
  });
});
