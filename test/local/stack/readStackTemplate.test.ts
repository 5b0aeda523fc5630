import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StackTemplateError } from "../../../local/errors.js";
import type { CfnTemplate } from "../../../local/stack/cfnTemplate.js";
import { readStackTemplate } from "../../../local/stack/readStackTemplate.js";
import { synthVariant } from "../../infra/synthVariant.js";

const cpuTemplate = (): CfnTemplate => structuredClone(synthVariant("cpu").template.toJSON()) as CfnTemplate;

describe("readStackTemplate", () => {
  it("reads each lane's queues, mapping and function as the template states them", () => {
    const template = cpuTemplate();

    const plan = readStackTemplate(template);

    for (const lane of ["interactive", "bulk"] as const) {
      const { queue, deadLetterQueue, eventSource, function: decide } = plan.lanes[lane];
      const queueProperties = template.Resources[queue.logicalId]?.Properties ?? {};
      const mapping = template.Resources[eventSource.logicalId]?.Properties ?? {};
      const fn = template.Resources[decide.logicalId]?.Properties ?? {};
      assert.equal(queue.visibilityTimeoutSeconds, queueProperties.VisibilityTimeout, lane);
      assert.equal(queue.messageRetentionSeconds, queueProperties.MessageRetentionPeriod, lane);
      assert.equal(queue.maximumMessageBytes, queueProperties.MaximumMessageSize, lane);
      assert.deepEqual(queue.redrive, {
        deadLetterQueue: deadLetterQueue.logicalId,
        maxReceiveCount: (queueProperties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount,
      });
      assert.equal(eventSource.batchSize, mapping.BatchSize, lane);
      assert.equal(eventSource.maximumBatchingWindowSeconds, mapping.MaximumBatchingWindowInSeconds, lane);
      assert.equal(
        eventSource.maximumConcurrency,
        (mapping.ScalingConfig as { MaximumConcurrency: number }).MaximumConcurrency,
      );
      assert.equal(eventSource.reportBatchItemFailures, true);
      assert.equal(decide.timeoutSeconds, fn.Timeout, lane);
      assert.equal(decide.memoryMb, fn.MemorySize, lane);
      assert.ok(decide.environmentNames.includes("LANE"));
    }
    assert.match(plan.lanes.interactive.queue.logicalId, /^InteractiveWorkQueue/);
    assert.match(plan.lanes.bulk.deadLetterQueue.logicalId, /^BulkWorkQueueDeadLetters/);
  });

  it("reads the tables' keys, indexes, TTL and stream", () => {
    const plan = readStackTemplate(cpuTemplate());

    assert.deepEqual(plan.tables.outcomes.keySchema, [
      { AttributeName: "policy", KeyType: "HASH" },
      { AttributeName: "id", KeyType: "RANGE" },
    ]);
    assert.deepEqual(
      plan.tables.outcomes.globalSecondaryIndexes.map((index) => index.IndexName),
      ["by-status"],
    );
    assert.equal(plan.tables.outcomes.timeToLiveAttribute, "expires_at");
    assert.equal(plan.tables.outcomes.streamViewType, "NEW_AND_OLD_IMAGES");
    assert.equal(plan.tables.jobs.timeToLiveAttribute, undefined);
    assert.deepEqual(plan.tables.jobs.globalSecondaryIndexes[0]?.Projection.ProjectionType, "INCLUDE");
  });

  it("reads the ingest rule's key pattern and the function its state machine invokes", () => {
    const template = cpuTemplate();

    const { ingest } = readStackTemplate(template);

    assert.deepEqual([ingest.prefix, ingest.suffix], ["incoming/", ".jsonl"]);
    assert.match(ingest.function.logicalId, /^IngestHandler/);
    assert.equal(
      ingest.function.timeoutSeconds,
      template.Resources[ingest.function.logicalId]?.Properties?.Timeout,
    );
    assert.ok(ingest.function.environmentNames.includes("WORK_QUEUE_URL"));
  });

  it("reads the ingest state machine's definition piece by piece, and the console's routes", () => {
    const template = cpuTemplate();

    const { ingest, consoleRoutes } = readStackTemplate(template);

    const stateMachine = template.Resources[ingest.stateMachine.logicalId];
    assert.equal(stateMachine?.Type, "AWS::StepFunctions::StateMachine");
    const definitionString = stateMachine?.Properties?.DefinitionString as {
      "Fn::Join": [string, unknown[]];
    };
    const pieces = definitionString["Fn::Join"][1];
    assert.deepEqual(
      ingest.stateMachine.definition,
      pieces.map((piece) =>
        typeof piece === "string"
          ? piece
          : "Ref" in (piece as object)
            ? { pseudoParameter: (piece as { Ref: string }).Ref }
            : { functionArn: (piece as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0] },
      ),
    );
    assert.ok(
      ingest.stateMachine.definition.some((piece) => typeof piece === "object" && "functionArn" in piece),
    );
    assert.deepEqual(
      consoleRoutes.map((route) => route.routeKey).sort(),
      Object.values(template.Resources)
        .filter((resource) => resource.Type === "AWS::ApiGatewayV2::Route")
        .map((resource) => resource.Properties?.RouteKey)
        .sort(),
    );
    assert.ok(consoleRoutes.some((route) => route.routeKey === "GET /api/policies/{policy}/shadow"));
  });

  it("names what a state machine's definition refers to that the local stack cannot give a value", () => {
    const template = cpuTemplate();
    const { ingest } = readStackTemplate(template);
    const properties = template.Resources[ingest.stateMachine.logicalId]?.Properties ?? {};
    const pieces = (properties.DefinitionString as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1];
    pieces.push({ "Fn::GetAtt": ["IngestWorkflowLogs246C4574", "Arn"] });

    assert.throws(
      () => readStackTemplate(template),
      (error: unknown) =>
        error instanceof StackTemplateError &&
        error.message.includes(ingest.stateMachine.logicalId) &&
        error.message.includes("IngestWorkflowLogs246C4574"),
    );
  });

  it("reads every mapping's filters, the results function's stream filter among them", () => {
    const plan = readStackTemplate(cpuTemplate());

    const filtered = Object.values(plan.eventSources).filter((mapping) => mapping.filters.length > 0);
    assert.equal(filtered.length, 1);
    assert.match(filtered[0]?.filters[0] ?? "", /"eventName":\["MODIFY"\]/);
  });

  it("names the lane whose decide function is missing", () => {
    const template = cpuTemplate();
    for (const resource of Object.values(template.Resources)) {
      const variables = (
        resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined
      )?.Variables;
      if (variables?.LANE === "bulk") delete variables.LANE;
    }

    assert.throws(
      () => readStackTemplate(template),
      (error: unknown) => {
        assert.ok(error instanceof StackTemplateError);
        assert.match(error.message, /LANE=bulk/);
        return true;
      },
    );
  });
});
