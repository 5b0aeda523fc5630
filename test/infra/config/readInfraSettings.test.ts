import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { App } from "aws-cdk-lib";
import fc from "fast-check";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { INFRA_KNOBS, InfraConfigError, readInfraSettings } from "../../../infra/index.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";

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

describe("readInfraSettings", () => {
  it("applies the documented defaults when the context is empty", () => {
    const settings = read({});

    assert.equal(settings.accelerator, "cpu");
    assert.equal(settings.cpuInstanceType, "ml.c6i.8xlarge");
    assert.deepEqual(settings.gpuInstancePools, ["ml.g6e.xlarge", "ml.g6.xlarge", "ml.g5.xlarge"]);
    assert.equal(settings.maxReceiveCount, 5);
    assert.equal(settings.cpuThreads, "auto");
    assert.equal(settings.standardEndpoint, false);
    assert.equal(settings.standardImage, undefined);
    assert.equal(settings.alarmEmail, undefined);
  });

  it("reads the strings `-c` gives as numbers, booleans and lists", () => {
    const settings = read({
      maxInstances: "6",
      cpuFallbackPool: "false",
      gpuInstancePools: "ml.g6.2xlarge,ml.g5.2xlarge",
      cpuThreads: "16",
    });

    assert.equal(settings.maxInstances, 6);
    assert.equal(settings.cpuFallbackPool, false);
    assert.deepEqual(settings.gpuInstancePools, ["ml.g6.2xlarge", "ml.g5.2xlarge"]);
    assert.equal(settings.cpuThreads, 16);
  });

  it("names every invalid knob at once", () => {
    const problems = problemsOf({
      accelerator: "tpu",
      batchSize: "ten",
      modelDataUrl: "https://example.com/m.tar.gz",
    });

    assert.deepEqual(problems.map((problem) => problem.knob).sort(), [
      "accelerator",
      "batchSize",
      "modelDataUrl",
    ]);
    assert.match(problems.find((problem) => problem.knob === "accelerator")?.message ?? "", /cpu, gpu/);
  });

  it("reads the stated goals and assumptions of the capacity rule, defaults first", () => {
    const defaults = read({});
    const given = read({
      bulkDrainGoalMinutes: "240",
      millisecondsPerLine: "350",
      instanceStartSeconds: "420",
    });

    assert.deepEqual(
      [
        defaults.bulkDrainGoalMinutes,
        defaults.millisecondsPerLine,
        defaults.instanceStartSeconds,
        defaults.layout,
      ],
      [60, 312, 360, "shared"],
    );
    assert.deepEqual(
      [given.bulkDrainGoalMinutes, given.millisecondsPerLine, given.instanceStartSeconds],
      [240, 350, 420],
    );
  });

  it("refuses no instance with the shared layout, and GPU pools or a fallback pool with lanes-from-zero, saying why", () => {
    const shared = problemsOf({ minInstances: "0" });
    const fromZero = read({ layout: "lanes-from-zero", minInstances: "0" });
    const pools = problemsOf({
      layout: "lanes-from-zero",
      accelerator: "gpu",
      gpuInstancePools: "ml.g6.xlarge,ml.g5.xlarge",
      cpuFallbackPool: "true",
    });
    const unknown = problemsOf({ layout: "split" });

    const messageOf = (problems: typeof shared, knob: string) =>
      problems.find((problem) => problem.knob === knob)?.message ?? "";
    assert.match(messageOf(shared, "minInstances"), /only inference components scale to zero/);
    assert.equal(
      fromZero.minInstances,
      0,
      "0 interactive copies and the lanes' floors are what lanes-from-zero allows",
    );
    assert.match(
      messageOf(pools, "layout"),
      /one instance type: give gpuInstancePools one type and cpuFallbackPool=false .*or deploy with layout=shared/,
    );
    assert.equal(unknown[0]?.knob, "layout");
  });

  it("refuses a knob it does not know, such as a misspelt one", () => {
    const problems = problemsOf({ maxInstance: 4 });

    assert.deepEqual(
      problems.map((problem) => problem.knob),
      ["maxInstance"],
    );
  });

  it("leaves CDK's own context keys alone", () => {
    assert.doesNotThrow(() =>
      read({
        "@aws-cdk/core:newStyleStackSynthesis": true,
        "aws:cdk:bundling-stacks": [],
        "cli-telemetry": false,
      }),
    );
  });

  it("refuses a maximum below the minimum, a large batch without a window, and too many pools", () => {
    assert.deepEqual(
      problemsOf({ minInstances: 3, maxInstances: 2 }).map((problem) => problem.knob),
      ["maxInstances"],
    );
    assert.deepEqual(
      problemsOf({ batchSize: 50, batchingWindowSeconds: 0 }).map((problem) => problem.knob),
      ["batchSize"],
    );
    assert.deepEqual(
      problemsOf({
        accelerator: "gpu",
        gpuInstancePools: ["ml.g5.xlarge", "ml.g5.2xlarge", "ml.g6.xlarge", "ml.g6.2xlarge", "ml.g6e.xlarge"],
      }).map((problem) => problem.knob),
      ["gpuInstancePools"],
    );
  });

  it("refuses an ingest prefix and suffix that would ingest the jobs' own results, saying what to change", () => {
    const [problem, ...others] = problemsOf({ ingestPrefix: "", ingestSuffix: ".jsonl" });

    assert.deepEqual(others, []);
    assert.equal(problem?.knob, "ingestPrefix");
    assert.match(problem?.message ?? "", /results\/job-0{32}\/results\.jsonl/);
    assert.match(problem?.message ?? "", /give an ingestPrefix outside results\//);
    assert.equal(read({ ingestPrefix: "uploads/", ingestSuffix: ".jsonl" }).ingestPrefix, "uploads/");
  });

  it("refuses a mutable standard image tag even while the standard endpoint is off", () => {
    const problems = problemsOf({
      standardImage: "763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp:latest",
    });

    assert.equal(problems[0]?.knob, "standardImage");
    assert.match(problems[0]?.message ?? "", /not pinned by digest/);
  });

  it("takes the standard endpoint's hub repository and file together, never with S3 model data", () => {
    const both = { standardHfRepo: "Qwen/Qwen3-0.6B-GGUF", standardHfFile: "Qwen3-0.6B-Q8_0.gguf" };

    assert.equal(read(both).standardHfRepo, "Qwen/Qwen3-0.6B-GGUF");
    assert.equal(read(both).standardHfFile, "Qwen3-0.6B-Q8_0.gguf");
    assert.deepEqual(
      problemsOf({ standardHfRepo: both.standardHfRepo }).map((problem) => problem.knob),
      ["standardHfFile"],
    );
    assert.deepEqual(
      problemsOf({ standardHfFile: both.standardHfFile }).map((problem) => problem.knob),
      ["standardHfRepo"],
    );
    const [conflict] = problemsOf({ ...both, standardModelDataUrl: "s3://bucket/model.tar.gz" });
    assert.equal(conflict?.knob, "standardModelDataUrl");
    assert.match(conflict?.message ?? "", /loads one of them/);
    assert.deepEqual(
      problemsOf({ ...both, standardHfRepo: "no-owner" }).map((problem) => problem.knob),
      ["standardHfRepo"],
    );
    assert.deepEqual(
      problemsOf({ ...both, standardHfFile: "model.bin" }).map((problem) => problem.knob),
      ["standardHfFile"],
    );
  });

  it("accepts every integer in a knob's range and refuses those outside it", () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), fc.boolean(), (value, asString) => {
        const context = { maxReceiveCount: asString ? String(value) : value };
        if (value >= 5 && value <= 1000) {
          assert.equal(read(context).maxReceiveCount, value);
        } else {
          assert.deepEqual(
            problemsOf(context).map((problem) => problem.knob),
            ["maxReceiveCount"],
          );
        }
      }),
      { numRuns: propertyRuns(process.env, 200) },
    );
  });
});

describe("cdk.json and the README", () => {
  const root = packageRoot();

  it("cdk.json sets every knob to its default and nothing else of ours", () => {
    const cdkJson = JSON.parse(readFileSync(join(root, "cdk.json"), "utf8")) as {
      context: Record<string, unknown>;
    };
    const ours = Object.fromEntries(
      Object.entries(cdkJson.context).filter(([key]) => /^[a-z][A-Za-z0-9]*$/.test(key)),
    );

    assert.deepEqual(ours, Object.fromEntries(INFRA_KNOBS.map((knob) => [knob.name, knob.defaultValue])));
  });

  it("the infra README's table documents every knob with its default", () => {
    const readme = readFileSync(join(root, "infra", "README.md"), "utf8");

    for (const knob of INFRA_KNOBS) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${knob.name}\` |`));
      assert.ok(row !== undefined, `no README row for ${knob.name}`);
      assert.ok(row.includes(JSON.stringify(knob.defaultValue)), `${knob.name}'s row shows its default`);
    }
  });
});
