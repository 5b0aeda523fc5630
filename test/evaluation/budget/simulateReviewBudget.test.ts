/**
 * The review budget simulation on generated traffic with known truth: the truth it reports is the
 * export's, every strategy stays within the budget, the console's margin order (audit items first)
 * gives a narrower interval on the automated error than newest-first for the same labels, ranking
 * audit items among the fallbacks by margin biases the estimate, the draws are reproducible, and
 * an export labelled at a lower rate caps the designs it cannot replay. Also the `calibrate
 * --simulate-budget` command's output.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createCalibrateCommand } from "../../../cli/commands/calibrateCommand.js";
import { parsePolicy } from "../../../core/policy/index.js";
import { simulateReviewBudget } from "../../../evaluation/budget/index.js";
import { collectForecasts } from "../../../evaluation/calibration/collectForecasts.js";
import { readLabelledDecisions } from "../../../evaluation/calibration/readLabelledDecisions.js";
import { generateReviewTraffic } from "../../../lab/review/generateReviewTraffic.js";

const traffic = generateReviewTraffic({ items: 4000, seed: 3 });
const policy = parsePolicy(traffic.policy, "review-budget.yaml");
const forecasts = collectForecasts(
  policy,
  readLabelledDecisions(traffic.labelled, "labelled.jsonl"),
).questions.get("route");

describe("generateReviewTraffic", () => {
  it("labels every item, decided ones as audit items at rate 1, the same for a seed", () => {
    const lines = traffic.labelled
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.equal(lines.length, 4000);
    assert.equal(lines.filter((line) => line.audit?.rate === 1).length, traffic.decided);
    assert.ok(
      traffic.decided > 1000 && traffic.fallbacks > 1000,
      `${traffic.decided} decided, ${traffic.fallbacks} fell back`,
    );
    assert.equal(generateReviewTraffic({ items: 4000, seed: 3 }).labelled, traffic.labelled);
    assert.notEqual(generateReviewTraffic({ items: 4000, seed: 4 }).labelled, traffic.labelled);
  });
});

describe("simulateReviewBudget", () => {
  const simulation = simulateReviewBudget(policy, "route", forecasts ?? [], {
    budget: 300,
    replications: 40,
    seed: 1,
  });
  const result = (name: string) => {
    const found = simulation.results.find((entry) => entry.strategy === name);
    assert.ok(found !== undefined, name);
    return found;
  };

  it("reports the truth of the whole export", () => {
    const decided = (forecasts ?? []).filter((forecast) => forecast.audit !== undefined);
    const wrong = decided.filter((forecast) => !forecast.audit?.correct).length;
    assert.equal(simulation.decided, traffic.decided);
    assert.equal(simulation.fallbacks, traffic.fallbacks);
    assert.ok(Math.abs(simulation.true_error - wrong / decided.length) < 1e-12);
    assert.ok(simulation.reference_threshold !== null);
  });

  it("spends at most the budget under every strategy", () => {
    for (const entry of simulation.results)
      assert.ok(entry.audit_labels + entry.fallback_labels <= 300 + 1e-9, `${entry.strategy} spent too much`);
  });

  it("the console's margin order (audit items first) narrows the automated error's interval against newest-first", () => {
    assert.ok(
      result("margin").interval_width < result("newest").interval_width / 2,
      `margin ${result("margin").interval_width} vs newest ${result("newest").interval_width}`,
    );
    assert.ok(Math.abs(result("margin").error_bias) < 0.02, "and stays unbiased");
    assert.ok(Math.abs(result("strata+margin").error_bias) < 0.02);
  });

  it("shows the bias of ranking audit items by margin among the fallbacks", () => {
    assert.ok(result("margin-mixed").error_bias > 0.05, `bias ${result("margin-mixed").error_bias}`);
  });

  it("gives the same numbers for the same seed", () => {
    const again = simulateReviewBudget(policy, "route", forecasts ?? [], {
      budget: 300,
      replications: 40,
      seed: 1,
    });
    assert.deepEqual(again, simulation);
  });

  it("caps a design above the rate an export was labelled at (more audits wanted than it labelled)", () => {
    const thinned = traffic.labelled.replaceAll('"audit":{"rate":1}', '"audit":{"rate":0.01}');
    const sparse = collectForecasts(policy, readLabelledDecisions(thinned, "thinned.jsonl")).questions.get(
      "route",
    );
    const capped = simulateReviewBudget(policy, "route", sparse ?? [], {
      budget: 2 * traffic.decided + 100,
      replications: 2,
    });
    assert.ok(capped.capped > 0);
  });

  it("refuses a budget that is not a whole number of labels", () => {
    assert.throws(() => simulateReviewBudget(policy, "route", forecasts ?? [], { budget: 0 }), RangeError);
  });
});

describe("decisions calibrate --simulate-budget", () => {
  it("prints one row per strategy for the export and writes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "budget-"));
    try {
      await writeFile(join(dir, "review-budget.yaml"), traffic.policy);
      await writeFile(join(dir, "labelled.jsonl"), traffic.labelled);
      let out = "";
      const command = createCalibrateCommand({
        stdout: {
          write: (text: string) => {
            out += text;
            return true;
          },
        },
        stderr: { write: () => true },
      });
      const code = await command.run([
        join(dir, "labelled.jsonl"),
        "--policy",
        join(dir, "review-budget.yaml"),
        "--simulate-budget",
        "200",
        "--replications",
        "5",
      ]);
      assert.equal(code, 0);
      assert.match(out, /## Budget of 200 labels, question route/);
      for (const strategy of ["newest", "uniform", "margin-mixed", "margin", "strata\\+margin"])
        assert.match(out, new RegExp(`^\\| ${strategy} \\|`, "m"));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
