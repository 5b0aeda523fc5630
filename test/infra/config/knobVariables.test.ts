/**
 * A knob that sets a variable of a function or of the adapter is parsed by that variable's own
 * entry of the settings kit, and the stack writes the value under the entry's name: what the CDK app
 * accepts, the reader accepts, and reads back as the same value.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { App } from "aws-cdk-lib";
import {
  DECIDE_SETTINGS,
  INGEST_SETTINGS,
  JOBS_MONITOR_SETTINGS,
  parseSetting,
  SERVER_SETTING_ENTRIES,
} from "../../../contract/index.js";
import { readDecideConfig } from "../../../functions/decide/readDecideConfig.js";
import { readIngestConfig } from "../../../functions/ingest/readIngestConfig.js";
import { readJobsMonitorConfig } from "../../../functions/jobsMonitor/readJobsMonitorConfig.js";
import { INFRA_KNOBS, readInfraSettings } from "../../../infra/index.js";
import { type SynthesisedStack, synthDecisionsStack } from "../synthDecisionsStack.js";

/** Values a person might give a knob with `-c` or in cdk.json. */
const GIVEN: readonly unknown[] = [
  "0",
  "1",
  "4",
  " 7 ",
  "64",
  "65",
  "1e1",
  "1.5",
  "x",
  "",
  3,
  64,
  65,
  -1,
  10_000_000,
];

/**
 * Other knobs a knob is given beside it, so that the stack's cross-checks leave room for every value
 * its variable accepts: the interactive reserve is checked against the places per instance (both
 * lanes must fit), so the instances get the most places and two of them.
 */
const ROOM: Readonly<Record<string, Record<string, unknown>>> = {
  interactiveReservePerInstance: { cpuRequestsPerInstance: 10_000, minInstances: 2 },
};

/** The knob's value as the CDK app reads it, or the error's class. */
function asKnob(name: string, value: unknown): unknown {
  try {
    return (
      readInfraSettings(new App({ context: { ...ROOM[name], [name]: value } }).node) as unknown as Record<
        string,
        unknown
      >
    )[name];
  } catch (error) {
    return (error as Error).name;
  }
}

/** The value as the variable's reader parses it, or "InfraConfigError" where it refuses it. */
function asReader(setting: Parameters<typeof parseSetting>[0], value: unknown): unknown {
  try {
    return parseSetting(setting, value);
  } catch {
    return "InfraConfigError";
  }
}

/** The environment of the stack's function whose handler entry is `decide` or `ingest`, as strings. */
function functionEnvironment(synth: SynthesisedStack, description: RegExp): Record<string, string> {
  const functions = synth.template.findResources("AWS::Lambda::Function");
  const fn = Object.values(functions).find((resource) =>
    description.test(String(resource.Properties?.Description ?? "")),
  );
  assert.ok(fn !== undefined, `no function described ${description}`);
  const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
  // Table names and queue URLs are CloudFormation references at synth: any text stands in for them.
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      typeof value === "string" ? value : `ref-${name}`,
    ]),
  );
}

describe("knobs that set a variable", () => {
  it("use that variable's kit entry: the same values accepted and refused, the same results", () => {
    const crossing = INFRA_KNOBS.filter((knob) => knob.setting !== undefined);
    assert.deepEqual(crossing.map((knob) => [knob.name, knob.variable]).sort(), [
      ["contextSize", "SEMIF_CONTEXT_SIZE"],
      ["cpuThreads", "SEMIF_THREADS"],
      ["driftAlarmThreshold", "DRIFT_THRESHOLD"],
      ["gpuLayers", "SEMIF_GPU_LAYERS"],
      ["ingestMaxLinesPerInvocation", "MAX_LINES_PER_INVOCATION"],
      ["interactiveReservePerInstance", "SEMIF_INTERACTIVE_RESERVE"],
      ["jobStallMinutes", "JOB_STALL_MINUTES"],
      ["maxConcurrentGroups", "MAX_CONCURRENT_GROUPS"],
    ]);
    assert.equal(
      INFRA_KNOBS.find((knob) => knob.name === "jobStallMinutes")?.setting,
      JOBS_MONITOR_SETTINGS.stallMinutes,
    );
    assert.equal(
      INFRA_KNOBS.find((knob) => knob.name === "maxConcurrentGroups")?.setting,
      DECIDE_SETTINGS.maxConcurrentGroups,
    );
    assert.equal(
      INFRA_KNOBS.find((knob) => knob.name === "ingestMaxLinesPerInvocation")?.setting,
      INGEST_SETTINGS.maxLinesPerInvocation,
    );
    assert.equal(
      INFRA_KNOBS.find((knob) => knob.name === "contextSize")?.setting,
      SERVER_SETTING_ENTRIES.contextSize,
    );
    assert.equal(
      INFRA_KNOBS.find((knob) => knob.name === "interactiveReservePerInstance")?.setting,
      SERVER_SETTING_ENTRIES.interactiveReserve,
    );

    for (const knob of crossing) {
      for (const value of GIVEN) {
        // `cpuThreads` also takes `auto` (the variable left unset); every other value is the variable's.
        const setting = knob.setting as Parameters<typeof parseSetting>[0];
        // A reserve of 0 is a valid adapter setting (no lanes) but leaves the interactive lane's
        // decide function no calls: the stack refuses it (deployKnobs.test.ts).
        if (knob.name === "interactiveReservePerInstance" && asReader(setting, value) === 0) {
          assert.equal(asKnob(knob.name, value), "InfraConfigError");
          continue;
        }
        assert.deepEqual(
          asKnob(knob.name, value),
          asReader(setting, value),
          `${knob.name} = ${JSON.stringify(value)}`,
        );
      }
    }
  });

  it("deploy the decide function's default of MAX_CONCURRENT_GROUPS unless told otherwise", () => {
    const knob = INFRA_KNOBS.find((candidate) => candidate.name === "maxConcurrentGroups");

    assert.ok(knob !== undefined && "value" in DECIDE_SETTINGS.maxConcurrentGroups.default);
    assert.equal(knob.defaultValue, DECIDE_SETTINGS.maxConcurrentGroups.default.value);
  });
});

describe("the synthesised functions' environments", () => {
  let synth: SynthesisedStack;
  before(() => {
    synth = synthDecisionsStack({
      context: { maxConcurrentGroups: "7", ingestMaxLinesPerInvocation: 1234, jobStallMinutes: 45 },
    });
  });
  after(() => synth?.dispose());

  it("read back, through the functions' own config readers, as the values the stack deployed", () => {
    const decide = readDecideConfig(
      functionEnvironment(synth, /^Decides work items of the interactive lane/),
      "/unused",
    );
    const bulk = readDecideConfig(
      functionEnvironment(synth, /^Decides work items of the bulk lane/),
      "/unused",
    );
    const ingest = readIngestConfig(functionEnvironment(synth, /^Ingests JSONL/), "/unused");

    // The knob is the ceiling; the stack may derive fewer from the endpoint's capacity.
    assert.equal(
      decide.maxConcurrentGroups,
      synth.stack.decideCapacity.lanes.interactive.groupsPerInvocation,
    );
    assert.equal(bulk.maxConcurrentGroups, synth.stack.decideCapacity.lanes.bulk.groupsPerInvocation);
    for (const config of [decide, bulk]) {
      assert.ok(config.maxConcurrentGroups >= 1 && config.maxConcurrentGroups <= 7);
    }
    assert.deepEqual([decide.lane, bulk.lane], ["interactive", "bulk"]);
    assert.equal(ingest.maxLinesPerInvocation, 1234);
    assert.equal(
      readJobsMonitorConfig(functionEnvironment(synth, /^Checks the batch jobs/)).stallMinutes,
      45,
    );
    assert.equal(decide.policyDir, "/var/task/policies");
  });
});
