import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { App } from "aws-cdk-lib";
import { InfraConfigError, readInfraSettings } from "../../../infra/index.js";

function read(context: Record<string, unknown>) {
  return readInfraSettings(new App({ context }).node);
}

function problemsOf(context: Record<string, unknown>): Array<{ knob: string; message: string }> {
  try {
    read(context);
  } catch (error) {
    if (error instanceof InfraConfigError) return [...error.problems];
    throw error;
  }
  assert.fail("expected an InfraConfigError");
}

describe("knobs within AWS's limits", () => {
  it("refuses a provisioning timeout below SageMaker's 300 s, naming the knob", () => {
    const problems = problemsOf({ accelerator: "gpu", instanceProvisionTimeoutSeconds: "120" });

    assert.deepEqual(
      problems.map((problem) => problem.knob),
      ["instanceProvisionTimeoutSeconds"],
    );
    assert.match(problems[0]?.message ?? "", /from 300 to 3600, got 120/);
    assert.equal(read({ instanceProvisionTimeoutSeconds: "300" }).instanceProvisionTimeoutSeconds, 300);
  });

  it("refuses requests per instance that leave the bulk lane fewer than 2 calls at minimum capacity, naming the smallest pool's knob", () => {
    const problems = problemsOf({ cpuRequestsPerInstance: "3" });

    assert.deepEqual(
      problems.map((problem) => problem.knob),
      ["cpuRequestsPerInstance"],
    );
    assert.match(
      problems[0]?.message ?? "",
      /bulk lane.*= 1: raise the smallest pool's requests per instance/,
    );
    // On GPU with the CPU fallback pool the CPU pool is the smallest; without it, the GPU pools.
    assert.deepEqual(
      problemsOf({ accelerator: "gpu", cpuRequestsPerInstance: "3" }).map((problem) => problem.knob),
      ["cpuRequestsPerInstance"],
    );
    assert.deepEqual(
      problemsOf({ accelerator: "gpu", cpuFallbackPool: "false", gpuRequestsPerInstance: "3" }).map(
        (problem) => problem.knob,
      ),
      ["gpuRequestsPerInstance"],
    );
  });

  it("refuses a reserve that leaves the interactive lane fewer than 2 calls, naming the reserve", () => {
    const problems = problemsOf({ interactiveReservePerInstance: "1" });

    assert.deepEqual(
      problems.map((problem) => problem.knob),
      ["interactiveReservePerInstance"],
    );
    assert.match(problems[0]?.message ?? "", /raise interactiveReservePerInstance or minInstances/);
    // Two instances reserve 2 × 1: enough for the interactive lane's 2 invocations.
    assert.equal(
      read({ interactiveReservePerInstance: "1", minInstances: "2" }).interactiveReservePerInstance,
      1,
    );
  });

  it("refuses a bulk oldest-message alarm that would come after SQS deleted the message", () => {
    assert.deepEqual(
      problemsOf({ bulkOldestMessageAlarmSeconds: String(4 * 86_400) }).map((problem) => problem.knob),
      ["bulkOldestMessageAlarmSeconds"],
    );
    assert.equal(read({ bulkOldestMessageAlarmSeconds: "86400" }).bulkOldestMessageAlarmSeconds, 86_400);
  });
});

describe("first-deploy knobs", () => {
  it("the production profile raises the instance bounds to at least 2 and 4, never lowers them", () => {
    assert.deepEqual(
      [read({ profile: "production" }).minInstances, read({ profile: "production" }).maxInstances],
      [2, 4],
    );
    const larger = read({ profile: "production", minInstances: "3", maxInstances: "8" });
    assert.deepEqual([larger.minInstances, larger.maxInstances], [3, 8]);
    assert.deepEqual([read({}).minInstances, read({}).maxInstances], [1, 2]);
  });

  it("the production profile keeps the outcomes table", () => {
    assert.deepEqual(
      problemsOf({ profile: "production", outcomesRemovalPolicy: "destroy" }).map((problem) => problem.knob),
      ["outcomesRemovalPolicy"],
    );
  });

  it("unpacked model data is a prefix ending in /, and a prefix needs modelDataCompression=none", () => {
    const unpacked = read({ modelDataCompression: "none", modelDataUrl: "s3://models-bucket/qwen/" });
    assert.equal(unpacked.modelDataUrl, "s3://models-bucket/qwen/");
    assert.deepEqual(
      problemsOf({ modelDataCompression: "none" }).map((problem) => problem.knob),
      ["modelDataUrl"],
    );
    assert.match(
      problemsOf({ modelDataUrl: "s3://models-bucket/qwen/" })[0]?.message ?? "",
      /set modelDataCompression=none/,
    );
  });

  it("takes a KMS key ARN for the model bucket, or nothing", () => {
    const arn = "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    assert.equal(read({ modelKmsKeyArn: arn }).modelKmsKeyArn, arn);
    assert.equal(read({}).modelKmsKeyArn, undefined);
    assert.deepEqual(
      problemsOf({ modelKmsKeyArn: "alias/models" }).map((problem) => problem.knob),
      ["modelKmsKeyArn"],
    );
  });
});
