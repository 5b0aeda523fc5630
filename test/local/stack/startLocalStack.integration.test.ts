/** The whole local stack with a stand-in handler: every part wired, stopped in order, failures named. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { after, before, describe, it } from "node:test";
import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  GetItemCommand,
  PutItemCommand,
} from "@aws-sdk/client-dynamodb";
import { InvokeEndpointCommand } from "@aws-sdk/client-sagemaker-runtime";
import { GetQueueAttributesCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import type { SQSBatchResponse } from "aws-lambda";
import { templateAuthorizer } from "../../../lab/rehearsal/templateAuthorizer.js";
import { JavaNotFoundError, PortInUseError } from "../../../local/errors.js";
import type { SqsBatchHandler } from "../../../local/eventSource/SqsEventSourcePoller.js";
import { deployTargetOf } from "../../../local/iam/TemplateResolver.js";
import { localStateMachine } from "../../../local/ingest/localStateMachine.js";
import { loadStackTemplate } from "../../../local/stack/loadStackTemplate.js";
import {
  type LocalStack,
  type StackHandlerContext,
  startLocalStack,
} from "../../../local/stack/startLocalStack.js";
import { listeningSockets } from "../listeningSockets.js";

const handlerErrors: unknown[] = [];

/** Asks the endpoint one question per record and writes what it answered: every part on the path. */
function standInHandler(context: StackHandlerContext): SqsBatchHandler {
  return async (event): Promise<SQSBatchResponse> => {
    const batchItemFailures = [];
    for (const record of event.Records) {
      try {
        const item = JSON.parse(record.body) as { id: string; state: string };
        const answer = await context.sagemakerRuntime.send(
          new InvokeEndpointCommand({
            EndpointName: context.endpointName,
            ContentType: "application/json",
            Body: JSON.stringify({
              state: item.state,
              questions: {
                team: { type: "choice", instructions: "Which team?", criteria: ["billing", "technical"] },
              },
            }),
          }),
        );
        const choice = JSON.parse(new TextDecoder().decode(answer.Body)).answers.team.choice as string;
        await context.dynamodb.send(
          new PutItemCommand({
            TableName: context.table,
            Item: {
              policy: { S: "stand-in" },
              id: { S: item.id },
              choice: { S: choice },
              lane: { S: context.lane },
              receive_count: { N: record.attributes.ApproximateReceiveCount },
            },
          }),
        );
      } catch (error) {
        handlerErrors.push(error);
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}

describe("startLocalStack (integration)", () => {
  let stack: LocalStack;
  const lines: string[] = [];

  before(async () => {
    const template = await loadStackTemplate();
    stack = await startLocalStack({
      env: { ...process.env, LOCAL_STACK_MARKER: "given-by-the-caller" },
      createHandler: standInHandler,
      adapterThreads: 2,
      log: (line) => lines.push(line),
      // Every call of the lanes' functions authorized against their roles in the template.
      iam: { template, authorizer: templateAuthorizer(template, deployTargetOf("Decisions")) },
    });
  });

  it("starts DynamoDB Local and the adapter from the environment it is given, with their own additions", async () => {
    const environ = async (pid: number | undefined): Promise<Map<string, string>> => {
      assert.ok(pid !== undefined, "the part runs as a process of its own");
      const text = await readFile(`/proc/${pid}/environ`, "utf8");
      return new Map(
        text
          .split("\0")
          .filter((entry) => entry.includes("="))
          .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
      );
    };

    const dynamodb = await environ(stack.dynamodb.pid);
    const adapter = await environ(stack.adapter.pid);

    assert.equal(dynamodb.get("LOCAL_STACK_MARKER"), "given-by-the-caller");
    assert.equal(dynamodb.get("DDB_LOCAL_TELEMETRY"), "0");
    assert.equal(dynamodb.get("PATH"), process.env.PATH);
    assert.equal(adapter.get("LOCAL_STACK_MARKER"), "given-by-the-caller");
    assert.equal(adapter.get("MALLOC_ARENA_MAX"), process.env.MALLOC_ARENA_MAX ?? "2");
    assert.equal(adapter.get("MALLOC_MMAP_THRESHOLD_"), process.env.MALLOC_MMAP_THRESHOLD_ ?? "262144");
  });

  after(async () => {
    await stack?.stop();
  });

  it("reports every endpoint on 127.0.0.1 and the names a client needs", () => {
    const info = stack.connectionInfo();
    for (const key of [
      "sqs_endpoint",
      "dynamodb_endpoint",
      "s3_endpoint",
      "gateway_url",
      "adapter_url",
      "queue_url",
      "dlq_url",
    ]) {
      assert.match(String(info[key]), /^http:\/\/127\.0\.0\.1:\d+/, key);
    }
    assert.equal(info.table, "outcomes");
    assert.equal(info.bucket, "ingest");
    assert.equal(info.endpoint_name, "decisions");
    assert.equal(info.region, "us-east-1");
    const queueUrls = info.queue_urls as Record<string, string>;
    const dlqUrls = info.dlq_urls as Record<string, string>;
    assert.deepEqual(Object.keys(queueUrls).sort(), ["bulk", "interactive"]);
    assert.equal(queueUrls.interactive, info.queue_url);
    assert.equal(dlqUrls.interactive, info.dlq_url);
    assert.match(queueUrls.bulk ?? "", /^http:\/\/127\.0\.0\.1:\d+\/\d+\/work-bulk$/);
    assert.match(dlqUrls.bulk ?? "", /^http:\/\/127\.0\.0\.1:\d+\/\d+\/work-bulk-dlq$/);
    assert.equal(stack.lanes.interactive.poller, stack.poller);
    assert.notEqual(stack.lanes.bulk.poller, stack.poller);
    assert.equal(stack.model.generated, true);
    assert.ok(lines.some((line) => line.startsWith("DynamoDB Local ready")));
  });

  it("carries a work item from the queue through the poller, the gateway and the adapter into the table", {
    timeout: 120_000,
  }, async () => {
    await stack.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.queueUrl,
        MessageBody: JSON.stringify({ id: "t-1", state: "My invoice is wrong" }),
      }),
    );
    let item: Record<string, { S?: string; N?: string }> | undefined;
    while (item === undefined) {
      const got = await stack.clients.dynamodb.send(
        new GetItemCommand({ TableName: stack.table, Key: { policy: { S: "stand-in" }, id: { S: "t-1" } } }),
      );
      item = got.Item as typeof item;
      if (item === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(["billing", "technical"].includes(item.choice?.S ?? ""), JSON.stringify(item));
    assert.equal(item.receive_count?.N, "1");
    assert.equal(item.lane?.S, "interactive");
    assert.equal(stack.gateway.invocations("decisions"), 1);
    assert.deepEqual(handlerErrors, []);
  });

  it("drains the bulk lane's queue with the handler built for the bulk lane", {
    timeout: 120_000,
  }, async () => {
    await stack.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.lanes.bulk.queueUrl,
        MessageBody: JSON.stringify({ id: "b-1", state: "Please classify this line" }),
      }),
    );
    let item: Record<string, { S?: string }> | undefined;
    while (item === undefined) {
      const got = await stack.clients.dynamodb.send(
        new GetItemCommand({ TableName: stack.table, Key: { policy: { S: "stand-in" }, id: { S: "b-1" } } }),
      );
      item = got.Item as typeof item;
      if (item === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(item.lane?.S, "bulk");
    // The outcome is written inside the invocation; the poller counts the batch once it has returned.
    while (stack.lanes.bulk.poller.stats().succeeded === 0 && stack.lanes.bulk.poller.stats().failed === 0)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(stack.lanes.bulk.poller.stats().succeeded, 1);
    assert.deepEqual(handlerErrors, []);
  });

  it("authorized every call of each lane's function and its event source against its role: none refused", () => {
    const { allowed, denied } = stack.iam?.ledger.snapshot() ?? { allowed: {}, denied: [] };
    assert.deepEqual(denied, []);
    for (const lane of ["interactive", "bulk"] as const) {
      const calls = allowed[`decide (${lane})`] ?? {};
      for (const action of [
        "sagemaker:InvokeEndpoint",
        "dynamodb:PutItem",
        "sqs:ReceiveMessage",
        "sqs:DeleteMessage",
        "sqs:GetQueueAttributes",
      ])
        assert.ok((calls[action] ?? 0) > 0, `${lane}: ${action} in ${JSON.stringify(calls)}`);
    }
  });

  it("builds its queues, event sources, tables, ingest state machine and console routes from the template, restating none of their settings", {
    timeout: 120_000,
  }, async () => {
    // The template `cdk deploy` sends, read here with no help from the stack's own reader.
    const template = await loadStackTemplate();
    const resources = Object.entries(template.Resources);
    const properties = (id: string) => template.Resources[id]?.Properties ?? {};
    const refOf = (value: unknown) => (value as { Ref: string }).Ref;
    const getAttOf = (value: unknown) => (value as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
    const variablesOf = (id: string) =>
      (properties(id).Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};

    for (const lane of ["interactive", "bulk"] as const) {
      const [functionId] = resources.find(
        ([id, resource]) => resource.Type === "AWS::Lambda::Function" && variablesOf(id)?.LANE === lane,
      ) ?? [""];
      const [, mapping] = resources.find(
        ([, resource]) =>
          resource.Type === "AWS::Lambda::EventSourceMapping" &&
          refOf(resource.Properties?.FunctionName) === functionId,
      ) ?? [undefined, undefined];
      assert.ok(mapping?.Properties !== undefined, `the ${lane} lane's mapping`);
      const queueId = getAttOf(mapping.Properties.EventSourceArn);
      const redrive = properties(queueId).RedrivePolicy as {
        deadLetterTargetArn: unknown;
        maxReceiveCount: number;
      };
      const dlqId = getAttOf(redrive.deadLetterTargetArn);

      const queue = await queueAttributes(stack.lanes[lane].queueUrl);
      const dlq = await queueAttributes(stack.lanes[lane].dlqUrl);
      const poller = stack.lanes[lane].poller.settings;

      assert.equal(
        Number(queue.VisibilityTimeout),
        properties(queueId).VisibilityTimeout,
        `${lane} visibility`,
      );
      assert.equal(
        Number(queue.MessageRetentionPeriod),
        properties(queueId).MessageRetentionPeriod,
        `${lane} retention`,
      );
      assert.equal(
        Number(queue.MaximumMessageSize),
        properties(queueId).MaximumMessageSize,
        `${lane} message size`,
      );
      assert.equal(
        JSON.parse(String(queue.RedrivePolicy)).maxReceiveCount,
        redrive.maxReceiveCount,
        `${lane} receives`,
      );
      assert.equal(JSON.parse(String(queue.RedrivePolicy)).deadLetterTargetArn, dlq.QueueArn, `${lane} DLQ`);
      assert.equal(
        Number(dlq.MessageRetentionPeriod),
        properties(dlqId).MessageRetentionPeriod,
        `${lane} DLQ retention`,
      );
      assert.equal(poller.batchSize, mapping.Properties.BatchSize, `${lane} batch size`);
      assert.equal(
        poller.maximumBatchingWindowMs,
        Number(mapping.Properties.MaximumBatchingWindowInSeconds) * 1000,
        `${lane} batching window`,
      );
      assert.equal(poller.reportBatchItemFailures, true);
      assert.equal(
        poller.functionTimeoutMs,
        Number(properties(functionId).Timeout) * 1000,
        `${lane} timeout`,
      );
    }
    const [interactiveFunction] = resources.find(
      ([id, resource]) =>
        resource.Type === "AWS::Lambda::Function" && variablesOf(id)?.LANE === "interactive",
    ) ?? [""];
    const tableId = refOf(variablesOf(interactiveFunction).OUTCOMES_TABLE);
    const table = (await stack.clients.dynamodb.send(new DescribeTableCommand({ TableName: stack.table })))
      .Table;
    const ttl = await stack.clients.dynamodb.send(new DescribeTimeToLiveCommand({ TableName: stack.table }));
    assert.deepEqual(table?.KeySchema, properties(tableId).KeySchema);
    assert.deepEqual(
      table?.GlobalSecondaryIndexes?.map((index) => ({
        IndexName: index.IndexName,
        KeySchema: index.KeySchema,
      })),
      (properties(tableId).GlobalSecondaryIndexes as { IndexName: string; KeySchema: unknown }[]).map(
        (index) => ({
          IndexName: index.IndexName,
          KeySchema: index.KeySchema,
        }),
      ),
    );
    assert.equal(
      table?.StreamSpecification?.StreamViewType,
      (properties(tableId).StreamSpecification as { StreamViewType: string }).StreamViewType,
    );
    assert.equal(
      ttl.TimeToLiveDescription?.AttributeName,
      (properties(tableId).TimeToLiveSpecification as { AttributeName: string }).AttributeName,
    );

    // The ingest state machine: the definition the local ingest runs is the template's, joined here
    // with the local stack's values for the partition, region and the function's ARN.
    const [machineId, machine] =
      resources.find(([, resource]) => resource.Type === "AWS::StepFunctions::StateMachine") ?? [];
    assert.ok(machineId !== undefined && machine?.Properties !== undefined, "the template's state machine");
    const pieces = (machine.Properties.DefinitionString as { "Fn::Join": [string, unknown[]] })[
      "Fn::Join"
    ][1];
    const joined = pieces
      .map((piece) => {
        if (typeof piece === "string") return piece;
        if ((piece as { Ref?: string }).Ref === "AWS::Partition") return "aws";
        const [id] = (piece as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"];
        return `arn:aws:lambda:${stack.region}:000000000000:function:${id}`;
      })
      .join("");
    const { ingest } = stack.plan;
    assert.equal(ingest.stateMachine.logicalId, machineId);
    assert.deepEqual(
      localStateMachine(ingest.stateMachine, ingest.function.logicalId, { region: stack.region }).definition,
      JSON.parse(joined),
    );
    // The console's routes: exactly the template's route keys.
    assert.deepEqual(
      stack.plan.consoleRoutes.map((route) => route.routeKey).sort(),
      resources
        .filter(([, resource]) => resource.Type === "AWS::ApiGatewayV2::Route")
        .map(([, resource]) => resource.Properties?.RouteKey)
        .sort(),
    );
  });

  async function queueAttributes(queueUrl: string): Promise<Record<string, string>> {
    const answer = await stack.clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["All"] }),
    );
    return answer.Attributes ?? {};
  }

  it("stops every part: no process of it listens afterwards", { timeout: 60_000 }, async () => {
    const pids = [stack.dynamodb.pid, stack.adapter.pid];
    await stack.stop();
    assert.equal(await stack.dynamodb.exited, 143);
    assert.equal(await stack.adapter.exited, 0);
    for (const pid of pids) assert.ok(pid !== undefined && !alive(pid));
    const mine = (await listeningSockets(process.pid)).map((socket) => socket.port);
    assert.ok(!mine.includes(stack.fauxqs.port));
    assert.ok(!mine.includes(stack.gateway.port));
  });
});

describe("startLocalStack when a part cannot start", () => {
  let holder: Server;
  let takenPort: number;

  before(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    takenPort = (holder.address() as { port: number }).port;
  });

  after(async () => {
    await new Promise((resolve) => holder.close(resolve));
  });

  it("names the part whose port is taken, and stops the parts already started", {
    timeout: 120_000,
  }, async () => {
    const before = new Set((await listeningSockets(process.pid)).map((socket) => socket.port));
    const lines: string[] = [];
    await assert.rejects(
      startLocalStack({
        env: process.env,
        createHandler: standInHandler,
        adapterThreads: 2,
        ports: { gateway: takenPort },
        log: (line) => lines.push(line),
      }),
      (error: unknown) => {
        assert.ok(error instanceof PortInUseError, String(error));
        assert.equal(error.part, "the SageMaker gateway");
        assert.equal(error.port, takenPort);
        return true;
      },
    );
    // DynamoDB Local, fauxqs and the adapter had started: none of them is left.
    const urls = lines.flatMap(
      (line) => /^(?:DynamoDB Local|fauxqs|the adapter) ready on (\S+)/.exec(line)?.[1] ?? [],
    );
    assert.equal(urls.length, 3, lines.join("\n"));
    for (const url of urls) {
      await assert.rejects(
        fetch(url),
        (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED",
      );
    }
    const after = (await listeningSockets(process.pid))
      .map((socket) => socket.port)
      .filter((port) => !before.has(port));
    assert.deepEqual(after, []);
  });

  it("names Java when it is missing", { timeout: 120_000 }, async () => {
    await assert.rejects(
      startLocalStack({
        env: process.env,
        createHandler: standInHandler,
        adapterThreads: 2,
        java: "/nonexistent/bin/java",
      }),
      (error: unknown) => {
        assert.ok(error instanceof JavaNotFoundError, String(error));
        assert.match(error.message, /^DynamoDB Local: Java is needed/);
        return true;
      },
    );
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}
