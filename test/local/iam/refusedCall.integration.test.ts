/**
 * IAM enforced on the running stack: the decide function's role in a template whose InvokeEndpoint
 * grant names the endpoint in another case (the case IAM matches and SageMaker's ARNs lower) is
 * refused as AWS refuses it, counted, and the item goes where a failed call's item goes: back to
 * the queue with its failure record, then to the DLQ.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { GetItemCommand } from "@aws-sdk/client-dynamodb";
import { ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { failureKeyOfItem } from "../../../contract/index.js";
import { templateAuthorizer } from "../../../lab/rehearsal/templateAuthorizer.js";
import { deployTargetOf } from "../../../local/iam/TemplateResolver.js";
import { createLocalDecideHandler } from "../../../local/stack/createLocalDecideHandler.js";
import { loadStackTemplate } from "../../../local/stack/loadStackTemplate.js";
import { type LocalStack, startLocalStack } from "../../../local/stack/startLocalStack.js";

type Statement = { Action?: unknown; Resource?: unknown };

describe("a call the decide function's role does not allow, on the running stack (integration)", () => {
  let stack: LocalStack;
  let grant: string;
  let endpointName: string;

  before(async () => {
    const template = structuredClone(await loadStackTemplate());
    const [, endpoint] =
      Object.entries(template.Resources).find(
        ([, resource]) => resource.Type === "AWS::SageMaker::Endpoint",
      ) ?? [];
    endpointName = String(endpoint?.Properties?.EndpointName);
    const [, policy] =
      Object.entries(template.Resources).find(
        ([id, resource]) =>
          resource.Type === "AWS::IAM::Policy" && id.startsWith("InteractiveDecideHandlerRoleDefaultPolicy"),
      ) ?? [];
    const statements =
      (policy?.Properties?.PolicyDocument as { Statement: Statement[] } | undefined)?.Statement ?? [];
    const invoke = statements.find((statement) =>
      [statement.Action].flat().includes("sagemaker:InvokeEndpoint"),
    );
    assert.ok(invoke !== undefined, "the interactive decide role grants InvokeEndpoint");
    grant = `arn:aws:sagemaker:us-east-1:111122223333:endpoint/${endpointName.toUpperCase()}`;
    invoke.Resource = grant;
    stack = await startLocalStack({
      env: process.env,
      adapterThreads: 2,
      createHandler: (context) => createLocalDecideHandler(context),
      // One receive, then the DLQ, a second later: the item's whole way within the test.
      maxReceiveCount: 1,
      visibilityTimeoutSeconds: 1,
      iam: { template, authorizer: templateAuthorizer(template, deployTargetOf("Decisions")) },
    });
  });

  after(async () => {
    await stack?.stop();
  });

  it("refuses InvokeEndpoint with AccessDeniedException naming the action and the resource, counts it, and loses no item", {
    timeout: 120_000,
  }, async () => {
    const item = {
      id: "TCK-REFUSED-1",
      policy: "ticket-routing",
      state: { subject: "Where is my package?", body: "It has not arrived.", channel: "email" },
    };
    await stack.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.lanes.interactive.queueUrl,
        MessageBody: JSON.stringify(item),
      }),
    );
    const deadLetter = await waitForDeadLetter(stack);

    const resource = `arn:aws:sagemaker:us-east-1:111122223333:endpoint/${endpointName.toLowerCase()}`;
    const { denied } = stack.iam?.ledger.snapshot() ?? { denied: [] };
    assert.deepEqual(
      denied.map((entry) => [entry.function, entry.action, entry.resource, entry.near_miss?.Resource]),
      [["decide (interactive)", "sagemaker:InvokeEndpoint", resource, grant]],
    );
    assert.ok((denied[0]?.count ?? 0) >= 1);
    // Not written as an outcome; its failure record tells why, in AWS's words; the message is in the DLQ.
    const outcome = await stack.clients.dynamodb.send(
      new GetItemCommand({ TableName: stack.table, Key: { policy: { S: item.policy }, id: { S: item.id } } }),
    );
    assert.equal(outcome.Item, undefined);
    const key = failureKeyOfItem(item.policy, item.id);
    const failure = await stack.clients.dynamodb.send(
      new GetItemCommand({ TableName: stack.table, Key: { policy: { S: key.policy }, id: { S: key.id } } }),
    );
    assert.equal(failure.Item?.failure_class?.S, "configuration", JSON.stringify(failure.Item));
    assert.match(
      failure.Item?.reason?.S ?? "",
      new RegExp(
        `is not authorized to perform: sagemaker:InvokeEndpoint on resource: ${resource.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} because no identity-based policy allows`,
      ),
    );
    assert.equal(JSON.parse(deadLetter).id, item.id);
  });
});

/** The first message to reach the interactive lane's DLQ (its body). */
async function waitForDeadLetter(stack: LocalStack): Promise<string> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const answer = await stack.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: stack.lanes.interactive.dlqUrl, WaitTimeSeconds: 1 }),
    );
    const body = answer.Messages?.[0]?.Body;
    if (body !== undefined) return body;
  }
  throw new Error("no message reached the DLQ within 90 s");
}
