import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deriveScalingTimes } from "../../../infra/capacity/deriveScalingTimes.js";

describe("deriveScalingTimes", () => {
  it("keeps each scale-out cooldown longer than an instance start and the next data point", () => {
    // act
    const times = [60, 360, 900].map(
      (start) => [start, deriveScalingTimes({ instanceStartSeconds: start })] as const,
    );

    // assert
    for (const [start, derived] of times) {
      assert.equal(derived.scaleOutCooldownSeconds, start + 60);
      assert.equal(derived.scaleInCooldownSeconds, 900);
    }
  });

  it("states the first line's bound from zero: the no-capacity alarm, the start, the longest re-queue delay", () => {
    assert.equal(deriveScalingTimes({ instanceStartSeconds: 360 }).fromZeroFirstLineSeconds, 120 + 360 + 60);
  });
});
