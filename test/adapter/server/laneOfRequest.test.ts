import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { laneOfRequest } from "../../../adapter/server/laneOfRequest.js";
import { CUSTOM_ATTRIBUTES_HEADER, LANES } from "../../../contract/lanes/lanes.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";

function withAttributes(value: string | string[] | undefined) {
  return { headers: value === undefined ? {} : { [CUSTOM_ATTRIBUTES_HEADER]: value } };
}

describe("laneOfRequest", () => {
  it("reads the lane the custom attributes name, beside other attributes", () => {
    assert.equal(laneOfRequest(withAttributes("lane=bulk")), "bulk");
    assert.equal(laneOfRequest(withAttributes("lane=interactive")), "interactive");
    assert.equal(laneOfRequest(withAttributes("trace=abc; lane = bulk ;x=1")), "bulk");
    assert.equal(laneOfRequest(withAttributes("trace=abc,lane=bulk")), "bulk");
  });

  it("gives interactive when the header is absent, names no lane or one that is not a lane", () => {
    assert.equal(laneOfRequest(withAttributes(undefined)), "interactive");
    assert.equal(laneOfRequest(withAttributes("")), "interactive");
    assert.equal(laneOfRequest(withAttributes("trace=abc")), "interactive");
    assert.equal(laneOfRequest(withAttributes("lane=urgent")), "interactive");
    assert.equal(laneOfRequest(withAttributes("lane=BULK")), "interactive");
    assert.equal(laneOfRequest(withAttributes("lane")), "interactive");
    assert.equal(laneOfRequest(withAttributes("=;==;,lane=")), "interactive");
  });

  it("reads a header given more than once as Node joins it", () => {
    assert.equal(laneOfRequest(withAttributes(["trace=abc", "lane=bulk"])), "bulk");
  });

  it("never throws and always gives a lane, whatever the header holds", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 64 }),
          fc
            .array(fc.constantFrom("lane", "=", ";", ",", " ", "bulk", "interactive", "x"))
            .map((parts) => parts.join("")),
          fc.array(fc.string({ maxLength: 16 }), { maxLength: 3 }),
        ),
        (value) => {
          const lane = laneOfRequest(withAttributes(value));
          assert.ok((LANES as readonly string[]).includes(lane), `got ${lane}`);
        },
      ),
      { numRuns: propertyRuns(process.env, 500) },
    );
  });
});
