/**
 * Delivery of outcomes in the CDK app: per deliver target a rule on the outcomes bus (the policy
 * and the target's statuses) → its queue with a DLQ and an alarm → the deliver function, which
 * reads back the DLQ map it is given; secrets by dynamic reference only; PutEvents only on a bus
 * target's bus; cdk-nag clean. Without a deliver section nothing of it is made.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Match } from "aws-cdk-lib/assertions";
import type { PolicyCatalogueEntry } from "../../contract/index.js";
import { readDeliverConfig } from "../../functions/deliver/readDeliverConfig.js";
import { DELIVERY_MAX_RECEIVE_COUNT } from "../../infra/constructs/index.js";
import { OUTCOME_EVENT_SOURCE } from "../../infra/index.js";
import { rehearse } from "../../lab/rehearsal/rehearse.js";
import { type CfnTemplate, deployTargetOf } from "../../lab/rehearsal/TemplateResolver.js";
import { synthDecisionsStack } from "./synthDecisionsStack.js";
import { synthOnce, VARIANTS } from "./synthVariant.js";
import { actionsOf, only, resourcesOf, statementsOf } from "./templateQueries.js";

const POLICIES: PolicyCatalogueEntry[] = [
  {
    name: "ticket-routing",
    file: "ticket-routing.yaml",
    events: [],
    deliver: [
      {
        name: "helpdesk",
        url: "https://helpdesk.example/hooks",
        secret: "env:HELPDESK_SECRET",
        on: ["decided", "reviewed"],
      },
      { name: "audit", bus: "audit-bus", on: ["rejected"] },
    ],
  },
  {
    name: "incident-priority",
    file: "incident-priority.yaml",
    events: [{ source: "acme.monitoring", detailType: "Incident Opened" }],
  },
];

describe("outcome deliveries in the CDK app", () => {
  const { template, findings, error } = synthOnce({
    context: VARIANTS.cpu,
    nag: true,
    sources: { policies: POLICIES },
  });

  it("synthesizes with no cdk-nag finding", () => {
    assert.equal(error, undefined, error?.message);
    assert.deepEqual(findings, []);
  });

  it("routes each target's statuses of its policy from the outcomes bus to its own queue, the target named beside the event", () => {
    const [, rule] = only(template, "AWS::Events::Rule", {
      EventPattern: Match.objectLike({
        source: [OUTCOME_EVENT_SOURCE],
        detail: {
          dynamodb: {
            NewImage: { policy: { S: ["ticket-routing"] }, status: { S: ["decided", "reviewed"] } },
          },
        },
      }),
    });
    const [target] = rule.Properties.Targets as Array<{
      InputTransformer: { InputTemplate: string; InputPathsMap: Record<string, string> };
      DeadLetterConfig?: unknown;
    }>;
    assert.equal(target?.InputTransformer.InputTemplate, '{"target":"ticket-routing/helpdesk","event":<f1>}');
    assert.deepEqual(target?.InputTransformer.InputPathsMap, { f1: "$" });
    assert.ok(target?.DeadLetterConfig !== undefined, "the rule's target has a DLQ");
  });

  it("gives each target's queue a DLQ after the schedule's attempts and an alarm on it", () => {
    const queues = template.findResources("AWS::SQS::Queue", {
      Properties: { RedrivePolicy: Match.objectLike({ maxReceiveCount: DELIVERY_MAX_RECEIVE_COUNT }) },
    });
    assert.equal(Object.keys(queues).length, 2);
    const alarms = template.findResources("AWS::CloudWatch::Alarm", {
      Properties: { AlarmDescription: Match.stringLikeRegexp("^Deliveries to ticket-routing/") },
    });
    assert.equal(Object.keys(alarms).length, 2);
    for (const alarm of Object.values(alarms)) assert.equal(alarm.Properties.Threshold, 1);
  });

  it("runs the deliver function with the DLQ map it reads back and the secret as a dynamic reference, never a value", () => {
    const [, fn] = only(template, "AWS::Lambda::Function", {
      Environment: { Variables: Match.objectLike({ DELIVERY_DLQ_URLS: Match.anyValue() }) },
    });
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    assert.match(
      JSON.stringify(variables.HELPDESK_SECRET),
      /\{\{resolve:secretsmanager:HELPDESK_SECRET:SecretString:::\}\}/,
    );
    // The map is built from queue references; the function parses what CloudFormation resolves.
    const config = readDeliverConfig({
      DELIVERY_DLQ_URLS: JSON.stringify({ "ticket-routing/helpdesk": "https://sqs/q" }),
    });
    assert.deepEqual(config.dlqUrls, { "ticket-routing/helpdesk": "https://sqs/q" });
    assert.match(
      JSON.stringify(variables.DELIVERY_DLQ_URLS),
      /ticket-routing\/helpdesk.*ticket-routing\/audit/,
    );

    const statements = statementsOf(template, fn);
    const putEvents = statements.filter((statement) => actionsOf(statement).includes("events:PutEvents"));
    assert.equal(putEvents.length, 1);
    assert.match(JSON.stringify(putEvents.flatMap(resourcesOf)), /event-bus\/audit-bus/);
    assert.ok(
      !statements.some((statement) => actionsOf(statement).some((action) => action.startsWith("dynamodb:"))),
    );
  });

  it("passes the rehearsal: every call the deliver function makes is authorized by its role", async () => {
    const report = await rehearse({
      template: structuredClone(template.toJSON()) as CfnTemplate,
      target: deployTargetOf("Decisions"),
    });
    assert.ok(report.exercised.functions.includes("deliver"));
    assert.deepEqual(report.calls.deliver, {
      "sqs:ReceiveMessage": 2,
      "sqs:DeleteMessage": 2,
      "sqs:ChangeMessageVisibility": 2,
      "sqs:SendMessage": 2,
    });
    assert.deepEqual(
      report.denied.filter((denied) => denied.function === "deliver"),
      [],
    );
  });

  it("refuses a literal secret, saying to use env: and Secrets Manager", () => {
    const literal = POLICIES.map((policy) =>
      policy.deliver === undefined
        ? policy
        : {
            ...policy,
            deliver: [{ name: "x", url: "https://x.example", secret: "whsec_abc", on: ["decided"] }],
          },
    );
    assert.throws(
      () => synthOnce({ context: VARIANTS.cpu, sources: { policies: literal } }),
      /env:NAME and create the Secrets Manager secret/,
    );
  });

  it("makes nothing of it without a deliver section", () => {
    const built = synthDecisionsStack({
      context: VARIANTS.cpu,
      sources: { policies: [POLICIES[1] as PolicyCatalogueEntry] },
    });
    try {
      assert.equal(built.stack.deliveries, undefined);
      assert.deepEqual(
        built.stack.node.findAll().filter((construct) => construct.node.id === "Deliveries"),
        [],
      );
    } finally {
      built.dispose();
    }
  });
});
