import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePolicy } from "../../../core/policy/parsePolicy.js";
import { calibratePolicy } from "../../../evaluation/calibration/calibratePolicy.js";
import { collectForecasts } from "../../../evaluation/calibration/collectForecasts.js";
import { formatCalibrationReport } from "../../../evaluation/calibration/formatCalibrationReport.js";
import { readLabelledDecisions } from "../../../evaluation/calibration/readLabelledDecisions.js";
import { syntheticItems } from "../syntheticForecasts.js";

const POLICY = parsePolicy(
  `name: routing
version: "1"
description: test policy
questions:
  queue:
    type: choice
    instructions: Which queue?
    criteria: {billing: Money, tech: Tech, other: Else}
    threshold: 0.5
    fallback: other
  urgent:
    type: noul
    instructions: Is it urgent?
    threshold: 0.7
    fallback: true
`,
  "routing.yaml",
);

/** Labelled lines for `queue`: the model over-confident by T = 2, a few lines for `urgent`. */
function labelledText(n: number): string {
  const items = syntheticItems({
    n,
    labels: ["billing", "tech", "other"],
    trueTemperature: 2,
    seed: 21,
    scale: 5,
  });
  return items
    .map((item, index) =>
      JSON.stringify({
        policy: "routing",
        id: item.id,
        policy_version: "1",
        questions: {
          queue: {
            distribution: Object.fromEntries(
              item.forecast.labels.map((label, k) => [label, item.forecast.probabilities[k]]),
            ),
            label: item.forecast.expected,
          },
          ...(index < 5 ? { urgent: { distribution: { true: 0.9, false: 0.1 }, label: true } } : {}),
        },
      }),
    )
    .join("\n");
}

describe("calibratePolicy", () => {
  it("fits the temperature, improves the held-out metrics and finds a threshold that holds held out", () => {
    const collected = collectForecasts(POLICY, readLabelledDecisions(labelledText(6000)));

    const report = calibratePolicy(POLICY, collected.questions, { errorBudget: 0.05, bias: true });
    const queue = report.questions.find((question) => question.id === "queue");
    const urgent = report.questions.find((question) => question.id === "urgent");

    assert.ok(queue?.fitted && queue.held_out && queue.threshold && queue.threshold_held_out);
    assert.ok(Math.abs(queue.fitted.temperature - 2) <= 0.2, `fitted ${queue.fitted.temperature}`);
    assert.ok(queue.held_out.after.ece < queue.held_out.before.ece);
    assert.ok(queue.held_out.after.nll < queue.held_out.before.nll);
    assert.ok(queue.held_out.after.brier < queue.held_out.before.brier);
    assert.equal(queue.held_out.after.n, queue.held_out_n);
    assert.ok(queue.threshold.met);
    assert.ok(queue.threshold_held_out.error_rate <= 0.05, `held out ${queue.threshold_held_out.error_rate}`);
    assert.ok(
      (queue.current_held_out?.error_rate ?? 0) > 0.05,
      "the current threshold 0.5 errs above budget",
    );
    assert.ok(queue.contextual !== undefined && Object.keys(queue.contextual.bias).length === 3);
    assert.equal(queue.curve?.length, 101);
    assert.match(urgent?.skipped ?? "", /needs at least 20/);
    const markdown = formatCalibrationReport(report);
    assert.match(markdown, /## queue \(choice\)/);
    assert.match(markdown, /\[reliability diagram\]\(queue-reliability\.svg\)/);
    assert.match(markdown, /Not calibrated: needs at least/);
  });

  it("splits the same way on every run", () => {
    const collected = collectForecasts(POLICY, readLabelledDecisions(labelledText(400)));

    const first = calibratePolicy(POLICY, collected.questions, { heldOut: { seed: 3 } });
    const second = calibratePolicy(POLICY, collected.questions, { heldOut: { seed: 3 } });

    assert.deepEqual(first, second);
  });
});
