import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bumpVersion } from "../../../evaluation/calibration/bumpVersion.js";
import { isHeldOut, splitHeldOut } from "../../../evaluation/calibration/splitHeldOut.js";

const ids = Array.from({ length: 2000 }, (_, index) => `T-${index}`);

describe("splitHeldOut", () => {
  it("holds out about the asked share, the same items on every run and in any order", () => {
    const first = splitHeldOut(ids, (id) => id, { fraction: 0.3, seed: 4 });
    const reversed = splitHeldOut([...ids].reverse(), (id) => id, { fraction: 0.3, seed: 4 });

    assert.ok(Math.abs(first.heldOut.length / ids.length - 0.3) < 0.04, `${first.heldOut.length}`);
    assert.equal(first.fit.length + first.heldOut.length, ids.length);
    assert.deepEqual([...reversed.heldOut].sort(), [...first.heldOut].sort());
  });

  it("draws another split for another seed", () => {
    const a = ids.filter((id) => isHeldOut(id, { seed: 1 }));
    const b = ids.filter((id) => isHeldOut(id, { seed: 2 }));

    assert.notDeepEqual(a, b);
  });
});

describe("bumpVersion", () => {
  it("increments the trailing number, keeping its width, or appends .1", () => {
    assert.equal(bumpVersion("3"), "4");
    assert.equal(bumpVersion("9"), "10");
    assert.equal(bumpVersion("2024.07"), "2024.08");
    assert.equal(bumpVersion("v1.9"), "v1.10");
    assert.equal(bumpVersion("beta"), "beta.1");
  });
});
