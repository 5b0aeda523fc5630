import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { SCALING_REACTION_SECONDS } from "../../functions/capacityController/index.js";
import { INFRA_KNOBS } from "../../infra/config/infraKnobs.js";
import { AWS_CONSTANTS, resolveSimulationInputs } from "../../simulation/index.js";

const PAGE = readFileSync(new URL("../../docs/simulation.md", import.meta.url), "utf8");

describe("the simulation's AWS constants", () => {
  it("are each cited from AWS documentation", () => {
    for (const [name, constant] of Object.entries(AWS_CONSTANTS)) {
      assert.match(constant.source, /^https:\/\/docs\.aws\.amazon\.com\//, `${name}'s source`);
    }
  });

  it("are listed in docs/simulation.md with their value and source, assumptions marked", () => {
    for (const [name, constant] of Object.entries(AWS_CONSTANTS)) {
      const row = PAGE.split("\n").find((line) => line.startsWith(`| ${name} |`));
      assert.ok(row !== undefined, `docs/simulation.md has a row for ${name}`);
      assert.ok(row.startsWith(`| ${name} | ${constant.value} |`), `${name}'s value in the page: ${row}`);
      assert.ok(row.includes(constant.source), `${name}'s source in the page`);
      assert.equal(
        row.includes("**assumption**"),
        "assumption" in constant,
        `${name} marked as an assumption or not`,
      );
    }
  });

  it("are the ones the capacity rule and the CDK app plan with", () => {
    // prepare
    const knob = (name: string) => INFRA_KNOBS.find((candidate) => candidate.name === name)?.defaultValue;
    const inputs = resolveSimulationInputs();

    // assert: the rule reacts after the model's data points (and the controller's own minute)
    assert.equal(SCALING_REACTION_SECONDS.out, (AWS_CONSTANTS.scaleOutDatapoints.value + 1) * 60);
    assert.equal(SCALING_REACTION_SECONDS.in, AWS_CONSTANTS.scaleInDatapoints.value * 60);
    // the stated start and seconds per line of the CDK app are the model's defaults
    assert.equal(knob("instanceStartSeconds"), AWS_CONSTANTS.instanceStartSeconds.value);
    assert.equal(inputs.instanceStartSeconds, AWS_CONSTANTS.instanceStartSeconds.value);
    assert.equal(knob("millisecondsPerLine"), Math.round(inputs.plannedSecondsPerLine * 1000));
  });
});
