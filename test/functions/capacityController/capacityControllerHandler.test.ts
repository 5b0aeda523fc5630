/** The capacity controller's handler over fake SDK clients: the commands it sends and the metrics the scaling policy tracks. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { GetEventSourceMappingCommand, UpdateEventSourceMappingCommand } from "@aws-sdk/client-lambda";
import { DescribeEndpointCommand, DescribeInferenceComponentCommand } from "@aws-sdk/client-sagemaker";
import type { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import {
  CapacityCheckError,
  createCapacityControllerDeps,
  createCapacityControllerHandler,
  readCapacityControllerConfig,
} from "../../../functions/capacityController/index.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import { captureStdout } from "../support/captureStdout.js";

const ENVIRONMENT = {
  ENDPOINT_NAME: "Decisions-decisions-0123abcd",
  VARIANT_REQUESTS_PER_INSTANCE: "AllTraffic=4",
  INTERACTIVE_RESERVE_PER_INSTANCE: "2",
  INTERACTIVE_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/interactive",
  BULK_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/bulk",
  INTERACTIVE_EVENT_SOURCE_UUID: "uuid-interactive",
  BULK_EVENT_SOURCE_UUID: "uuid-bulk",
  INTERACTIVE_GROUPS_PER_INVOCATION: "1",
  BULK_GROUPS_PER_INVOCATION: "1",
  INTERACTIVE_MIN_CONCURRENCY: "2",
  BULK_MIN_CONCURRENCY: "2",
  BULK_GOAL_SECONDS: "3600",
  INTERACTIVE_GOAL_SECONDS: "60",
  MILLISECONDS_PER_LINE: "312",
  INSTANCE_START_SECONDS: "360",
  MAX_INSTANCES: "20",
};

/** A client whose `send` answers from `answer` and records each command. */
function fakeClient(answer: (command: object) => unknown) {
  const sent: object[] = [];
  return {
    sent,
    client: {
      send: async (command: object) => {
        sent.push(command);
        const result = answer(command);
        if (result instanceof Error) throw result;
        return result;
      },
    } as { send: never },
  };
}

function run(
  describeEndpoint: (command: object) => unknown,
  environment: Record<string, string> = ENVIRONMENT,
) {
  const sagemaker = fakeClient(describeEndpoint);
  const sqs = fakeClient((command) => ({
    Attributes: {
      ApproximateNumberOfMessages: (command as GetQueueAttributesCommand).input.QueueUrl?.endsWith("/bulk")
        ? "9000"
        : "4",
    },
  }));
  const lambda = fakeClient((command) =>
    command instanceof GetEventSourceMappingCommand ? { ScalingConfig: { MaximumConcurrency: 2 } } : {},
  );
  const handler = createCapacityControllerHandler(
    createCapacityControllerDeps(readCapacityControllerConfig(environment), {
      sagemaker: sagemaker.client,
      sqs: sqs.client,
      lambda: lambda.client,
      logger: new Logger({ serviceName: "capacity-controller", logLevel: "SILENT" }),
      metrics: new Metrics({ namespace: "Decisions", serviceName: "capacity-controller" }),
    }),
  );
  const context = createLambdaContext({
    functionName: "capacity-controller",
    region: "eu-west-1",
    timeoutMs: 60_000,
  });
  return { sagemaker, sqs, lambda, invoke: () => captureStdout(() => handler({}, context)) };
}

/** The EMF documents among the lines, by their metric's name. */
function emfByMetric(lines: string[]): Map<string, Record<string, unknown>> {
  const documents = new Map<string, Record<string, unknown>>();
  for (const line of lines) {
    const document = JSON.parse(line) as Record<string, unknown> & {
      _aws?: { CloudWatchMetrics: Array<{ Metrics: Array<{ Name: string }> }> };
    };
    for (const metric of document._aws?.CloudWatchMetrics[0]?.Metrics ?? [])
      documents.set(metric.Name, document);
  }
  return documents;
}

describe("the capacity controller's handler", () => {
  it("describes the endpoint, reads both queues, updates only the scaling config and publishes GoalCapacityRatio and BacklogPerInstance by endpoint", async () => {
    // Prepare: 3 CPU instances in service, both lanes at their minimum.
    const { sagemaker, sqs, lambda, invoke } = run(() => ({
      EndpointStatus: "InService",
      ProductionVariants: [{ VariantName: "AllTraffic", CurrentInstanceCount: 3, DesiredInstanceCount: 3 }],
    }));

    // Act
    const { result, lines } = await invoke();

    // Assert: the commands.
    assert.deepEqual(
      sagemaker.sent.map((command) => (command as DescribeEndpointCommand).input),
      [{ EndpointName: ENVIRONMENT.ENDPOINT_NAME }],
    );
    assert.ok(sagemaker.sent[0] instanceof DescribeEndpointCommand);
    assert.deepEqual(
      sqs.sent.map((command) => (command as GetQueueAttributesCommand).input),
      [
        { QueueUrl: ENVIRONMENT.INTERACTIVE_QUEUE_URL, AttributeNames: ["ApproximateNumberOfMessages"] },
        { QueueUrl: ENVIRONMENT.BULK_QUEUE_URL, AttributeNames: ["ApproximateNumberOfMessages"] },
      ],
    );
    const updates = lambda.sent.filter((command) => command instanceof UpdateEventSourceMappingCommand);
    assert.deepEqual(
      updates.map((command) => (command as UpdateEventSourceMappingCommand).input),
      [
        { UUID: "uuid-interactive", ScalingConfig: { MaximumConcurrency: 6 } },
        { UUID: "uuid-bulk", ScalingConfig: { MaximumConcurrency: 6 } },
      ],
    );
    assert.deepEqual(result.backlog, { interactive: 4, bulk: 9000 });

    // Assert: the backlog per instance, for the dashboard, with the endpoint's dimensions.
    const emf = emfByMetric(lines);
    const backlog = emf.get("BacklogPerInstance");
    assert.ok(backlog !== undefined, `BacklogPerInstance among ${lines.length} lines`);
    assert.equal(backlog.BacklogPerInstance, 3000);
    assert.deepEqual(
      (backlog._aws as { CloudWatchMetrics: Array<{ Dimensions: string[][]; Namespace: string }> })
        .CloudWatchMetrics[0],
      {
        Namespace: "Decisions",
        Dimensions: [["service", "endpoint"]],
        Metrics: [{ Name: "BacklogPerInstance", Unit: "Count" }],
      },
    );
    assert.equal(backlog.endpoint, ENVIRONMENT.ENDPOINT_NAME);
    assert.equal(emf.get("InServiceInstances")?.InServiceInstances, 3);

    // Assert: the metric the goal scaling policy tracks, with exactly its dimensions: 9,004 lines at
    // 0.312 s (2,809 s of work) on 3 instances is within the goal and not yet the tail: 1, keep.
    const goal = emf.get("GoalCapacityRatio");
    assert.ok(goal !== undefined, `GoalCapacityRatio among ${lines.length} lines`);
    assert.equal(goal.GoalCapacityRatio, 1);
    assert.equal(goal.endpoint, ENVIRONMENT.ENDPOINT_NAME);
    assert.deepEqual(
      (goal._aws as { CloudWatchMetrics: Array<{ Dimensions: string[][] }> }).CloudWatchMetrics[0]
        ?.Dimensions,
      [["service", "endpoint"]],
    );
    assert.equal(emf.get("GoalInstances")?.GoalInstances, 3);
    assert.equal(emf.get("LaneMaxConcurrency")?.lane !== undefined, true);
  });

  it("with a component per lane, reads each component's copies instead of the endpoint, sizes each lane on its own copies and publishes GoalCapacityRatio by component", async () => {
    // Prepare: the interactive component has 1 copy; the bulk one was asked for 1 and has none yet.
    const components = { interactive: "decisions-52ab4287-interactive", bulk: "decisions-52ab4287-bulk" };
    const { sagemaker, lambda, invoke } = run(
      (command) => {
        const name = (command as DescribeInferenceComponentCommand).input.InferenceComponentName;
        const current = name === components.interactive ? 1 : 0;
        return {
          InferenceComponentName: name,
          InferenceComponentStatus: "InService",
          RuntimeConfig: { CurrentCopyCount: current, DesiredCopyCount: 1 },
        };
      },
      {
        ...ENVIRONMENT,
        INTERACTIVE_COMPONENT_NAME: components.interactive,
        BULK_COMPONENT_NAME: components.bulk,
      },
    );

    // Act
    const { result, lines } = await invoke();

    // Assert: the components were described, the endpoint was not.
    assert.ok(sagemaker.sent.every((command) => command instanceof DescribeInferenceComponentCommand));
    assert.deepEqual(
      sagemaker.sent.map((command) => (command as DescribeInferenceComponentCommand).input),
      [{ InferenceComponentName: components.interactive }, { InferenceComponentName: components.bulk }],
    );
    // Interactive: 1 copy × its 4 places; bulk: no copy in service yet, its floor of 2.
    const updates = lambda.sent.filter((command) => command instanceof UpdateEventSourceMappingCommand);
    assert.deepEqual(
      updates.map((command) => (command as UpdateEventSourceMappingCommand).input),
      [{ UUID: "uuid-interactive", ScalingConfig: { MaximumConcurrency: 4 } }],
    );
    assert.equal(result.inServiceInstances, 1);

    // Assert: one GoalCapacityRatio per component, with exactly the dimensions its policy tracks.
    const ratios = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((document) => "GoalCapacityRatio" in document);
    assert.deepEqual(
      ratios.map((document) => [
        document.component,
        (document._aws as { CloudWatchMetrics: Array<{ Dimensions: string[][] }> }).CloudWatchMetrics[0]
          ?.Dimensions,
      ]),
      [
        [components.interactive, [["service", "component"]]],
        [components.bulk, [["service", "component"]]],
      ],
    );
    // 9,000 bulk lines (2,808 s of work) with no copy in service: one copy wanted, asked for as 1
    // (target tracking cannot leave 0 copies; the step policy on no-capacity failures does).
    assert.equal(ratios[1]?.GoalCapacityRatio, 1);
    const wanted = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((document) => "GoalInstances" in document)
      .map((document) => [document.component, document.GoalInstances]);
    // The 4 interactive lines are the tail of what its copy drains: nothing beyond its floor.
    assert.deepEqual(wanted, [
      [components.interactive, 0],
      [components.bulk, 1],
    ]);
  });

  it("refuses one lane's component without the other's, naming the variable", () => {
    assert.throws(
      () => readCapacityControllerConfig({ ...ENVIRONMENT, BULK_COMPONENT_NAME: "decisions-52ab4287-bulk" }),
      /INTERACTIVE_COMPONENT_NAME is empty while the other lane's component is set/,
    );
  });

  it("keeps the lanes at their minimum and fails the invocation when the endpoint cannot be read", async () => {
    const denied = Object.assign(new Error("not authorized to perform sagemaker:DescribeEndpoint"), {
      name: "AccessDeniedException",
    });
    const { lambda, invoke } = run(() => denied);

    await assert.rejects(invoke(), (error: unknown) => {
      assert.ok(error instanceof CapacityCheckError);
      assert.match(error.message, /read the endpoint \(AccessDeniedException/);
      assert.equal(error.cause, denied);
      return true;
    });
    assert.equal(
      lambda.sent.filter((command) => command instanceof UpdateEventSourceMappingCommand).length,
      0,
      "the lanes were at their minimum already",
    );
  });

  it("refuses a configuration without variants, naming the variable", () => {
    assert.throws(
      () => readCapacityControllerConfig({ ...ENVIRONMENT, VARIANT_REQUESTS_PER_INSTANCE: "AllTraffic" }),
      /VARIANT_REQUESTS_PER_INSTANCE must be <variant>=<requests per instance ≥ 1>/,
    );
  });
});
