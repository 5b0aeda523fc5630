import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LANES, laneAttributeOf, laneOfAttributes } from "../../contract/index.js";

describe("a call's lane in SageMaker's custom attributes", () => {
  it("reads back the lane it wrote, for every lane", () => {
    for (const lane of LANES) assert.equal(laneOfAttributes(laneAttributeOf(lane)), lane);
  });

  it("finds the lane among other attributes, with spaces around", () => {
    assert.equal(laneOfAttributes("trace=abc; lane = bulk ;x=1"), "bulk");
    assert.equal(laneOfAttributes("a=b,lane=interactive"), "interactive");
  });

  it("names no lane for an absent, empty, unknown or malformed value", () => {
    for (const value of [undefined, "", "lane", "lane=", "lane=urgent", "LANE=bulk", "plane=bulk", "=bulk"]) {
      assert.equal(laneOfAttributes(value), undefined, String(value));
    }
  });
});
