/**
 * SamplerGarbage: a minor V8 collection per bound of pending sampler vectors, a major one when the
 * resident size has grown past twice the bound since the last major collection.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SamplerGarbage } from "../../../../adapter/engine/sequence/SamplerGarbage.js";

const MIB = 1024 * 1024;

/** A SamplerGarbage whose collections are recorded and whose resident size is set by the test. */
function recorded(vocabularySize: number, boundBytes?: number) {
  const collected: string[] = [];
  const memory = { resident: 300 * MIB };
  const garbage = new SamplerGarbage({
    vocabularySize,
    ...(boundBytes !== undefined ? { boundBytes } : {}),
    collect: (type) => collected.push(type),
    residentBytes: () => memory.resident,
  });
  return { garbage, collected, memory };
}

describe("SamplerGarbage", () => {
  it("collects once per bound of vocabulary-sized vectors: every 4th evaluation for Qwen's 151,936 tokens", () => {
    // prepare
    const { garbage, collected } = recorded(151_936);

    // act
    for (let n = 0; n < 3; n++) garbage.evaluated();
    const early = [...collected];
    for (let n = 0; n < 5; n++) garbage.evaluated();

    // assert
    assert.equal(garbage.evaluationsPerCollection, 4);
    assert.deepEqual(early, []);
    assert.deepEqual(collected, ["minor", "minor"]);
    assert.deepEqual(garbage.collections, { minor: 2, major: 0 });
  });

  it("counts several evaluations at once", () => {
    const { garbage, collected } = recorded(151_936);

    garbage.evaluated(4);

    assert.deepEqual(collected, ["minor"]);
  });

  it("collects every 8th evaluation when the vocabulary size is unknown, and at every one for a huge vocabulary", () => {
    const unknown = recorded(0);
    const huge = recorded(10_000_000);

    for (let n = 0; n < 8; n++) unknown.garbage.evaluated();
    huge.garbage.evaluated();

    assert.equal(unknown.garbage.evaluationsPerCollection, 8);
    assert.deepEqual(unknown.collected, ["minor"]);
    assert.equal(huge.garbage.evaluationsPerCollection, 1);
    assert.deepEqual(huge.collected, ["minor"]);
  });

  it("runs a major collection once the resident size grew past twice the bound, then measures again", () => {
    // prepare: 1 MiB vocabulary vectors (87,381 tokens × 12 bytes), 4 MiB bound → every 4th evaluation
    const { garbage, collected, memory } = recorded(87_382, 4 * MIB);
    const collectOnce = () => {
      for (let n = 0; n < garbage.evaluationsPerCollection; n++) garbage.evaluated();
    };

    // act
    collectOnce(); // baseline 300 MiB
    memory.resident += 8 * MIB; // exactly twice the bound: not past it
    collectOnce();
    memory.resident += 1; // past it
    collectOnce();
    memory.resident += 20 * MIB; // the next collection measures the new baseline
    collectOnce();
    collectOnce();

    // assert
    assert.deepEqual(collected, ["minor", "minor", "major", "minor", "minor"]);
    assert.deepEqual(garbage.collections, { minor: 4, major: 1 });
  });

  it("collects with V8's own collector by default, without a gc global left behind", () => {
    // prepare
    const hadGc = "gc" in globalThis;
    const garbage = new SamplerGarbage({ vocabularySize: 0 });

    // act
    for (let n = 0; n < 16; n++) garbage.evaluated();

    // assert
    assert.deepEqual(garbage.collections.minor + garbage.collections.major, 2);
    assert.equal("gc" in globalThis, hadGc);
  });
});
