import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { outcomeAt } from "../../../evaluation/calibration/calibratePolicy.js";
import { judgeHeldOut } from "../../../evaluation/calibration/judgeHeldOut.js";
import type { GradedDecision } from "../../../evaluation/metrics/types.js";

/** `right` correct and `wrong` wrong decisions, all at confidence 0.9. */
function decisions(right: number, wrong: number): GradedDecision[] {
  const one = (correct: boolean) => ({ confidence: 0.9, correct }) as GradedDecision;
  return [
    ...Array.from({ length: right }, () => one(true)),
    ...Array.from({ length: wrong }, () => one(false)),
  ];
}

describe("judgeHeldOut", () => {
  it("calls a held-out error above the budget exceeded and not writable (the issue's 2 of 3 at budget 0.2)", () => {
    const judged = judgeHeldOut(outcomeAt(decisions(1, 2), 0.5), 0.2);

    assert.equal(judged.verdict, "exceeded");
    assert.equal(judged.writable, false);
    assert.match(
      judged.message,
      /errs on 0\.6667 \(2 of 3\) .* above the budget 0\.2 \(upper bound 0\.9\d+\)/,
    );
  });

  it("calls an error within the budget whose upper bound is not consistent, and writable", () => {
    const judged = judgeHeldOut(outcomeAt(decisions(19, 1), 0.5), 0.1);

    assert.equal(judged.verdict, "consistent");
    assert.equal(judged.writable, true);
    assert.match(judged.message, /too few held-out decisions to confirm it/);
  });

  it("confirms a budget the upper bound keeps", () => {
    const outcome = outcomeAt(decisions(400, 2), 0.5);

    assert.ok(outcome.error_upper_bound < 0.05);
    assert.equal(judgeHeldOut(outcome, 0.05).verdict, "confirmed");
  });

  it("calls a threshold that automates nothing held out untested, and not writable", () => {
    const judged = judgeHeldOut(outcomeAt(decisions(5, 0), 0.95), 0.05);

    assert.equal(judged.verdict, "untested");
    assert.equal(judged.writable, false);
  });
});
