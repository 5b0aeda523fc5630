/** The pure parts of layout choice and debiasing: rotations, the `auto` rule, combining rotations. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chooseAutoLayouts, type LayoutCost } from "../../../adapter/engine/prompt/chooseAutoLayouts.js";
import { cyclicRotations, rotate } from "../../../adapter/engine/prompt/cyclicRotations.js";
import { combineRotations } from "../../../adapter/engine/readout/combineRotations.js";
import type { DecisionOption, DecisionResult } from "../../../adapter/engine/types.js";

describe("cyclicRotations", () => {
  it("spreads k rotations evenly, starting with the given order", () => {
    assert.deepEqual(cyclicRotations(4), [0, 1, 2, 3]);
    assert.deepEqual(cyclicRotations(4, 2), [0, 2]);
    assert.deepEqual(cyclicRotations(20, 3), [0, 6, 13]);
    assert.deepEqual(cyclicRotations(5, 1), [0]);
    assert.throws(() => cyclicRotations(3, 4), RangeError);
    assert.throws(() => cyclicRotations(3, 0), RangeError);
    assert.deepEqual(rotate(["a", "b", "c"], 1), ["b", "c", "a"]);
    assert.deepEqual(rotate(["a", "b", "c"], 0), ["a", "b", "c"]);
  });
});

describe("chooseAutoLayouts", () => {
  const cost = (layout: LayoutCost["layout"], stateFirst: number, questionFirst: number, prompts = 1) => ({
    layout,
    stateFirstTokens: stateFirst,
    questionFirstTokens: questionFirst,
    prompts,
  });

  it("sends a question first when its item part is cheaper than its own state-first part", () => {
    assert.deepEqual(chooseAutoLayouts([cost("direct-options-v1", 0, 0), cost("auto", 400, 60)], 40), [
      "direct-options-v1",
      "question-first-v1",
    ]);
    assert.deepEqual(chooseAutoLayouts([cost("direct-options-v1", 0, 0), cost("auto", 50, 170)], 160), [
      "direct-options-v1",
      "direct-options-v1",
    ]);
  });

  it("compares the totals when no question is fixed state first: the state once against once per question", () => {
    // One question alone: 160 + 50 state first against 170 question first.
    assert.deepEqual(chooseAutoLayouts([cost("auto", 50, 170)], 160), ["question-first-v1"]);
    // Two: 160 + 50 + 60 = 270 against 170 + 180 = 350.
    assert.deepEqual(chooseAutoLayouts([cost("auto", 50, 170), cost("auto", 60, 180)], 160), [
      "direct-options-v1",
      "direct-options-v1",
    ]);
    // Rotations multiply a question's own part: 160 + 4·50 + 60 = 420 against 4·170 + 180 = 860.
    assert.deepEqual(chooseAutoLayouts([cost("auto", 50, 170, 4), cost("auto", 60, 180)], 160), [
      "direct-options-v1",
      "direct-options-v1",
    ]);
    assert.deepEqual(chooseAutoLayouts([cost("question-first-v1", 0, 0), cost("auto", 20, 50)], 10), [
      "question-first-v1",
      "direct-options-v1",
    ]);
  });
});

describe("combineRotations", () => {
  const options: DecisionOption[] = [
    { id: "a", description: "A" },
    { id: "b", description: "B" },
    { id: "c", description: "C" },
  ];
  /** A result listing `ids` in offered order with `probabilities`. */
  function result(ids: string[], probabilities: number[]): DecisionResult {
    return {
      id: "q",
      option_ids: ids,
      probabilities,
      option_logits: probabilities.map(Math.log),
      prompt_sha256: ids.join(""),
      prompt_version: "direct-options-v1",
      readout: {
        mode: "label-only",
        option_logits: "log-probability relative to the slot set (softmax over slots)",
        labels: ["A", "B", "C"],
        label_tokens: [1, 2, 3],
        temperature: 1,
        slot_mass: null,
      },
      input_tokens: 10,
      evaluated_tokens: 4,
      cached_tokens: 6,
      timing: { tokenize_ms: 1, prefill_ms: 2, readout_ms: 0, queue_ms: 0, total_ms: 3 },
      model: "m",
    };
  }

  it("reports sensitivity 0 and the rotations' own answer when position changes nothing", () => {
    // A reader without position bias: each option keeps its probability wherever it is offered.
    const byId: Record<string, number> = { a: 0.5, b: 0.3, c: 0.2 };
    const orders = [
      ["a", "b", "c"],
      ["b", "c", "a"],
      ["c", "a", "b"],
    ];
    const combined = combineRotations(
      options,
      orders.map((ids) =>
        result(
          ids,
          ids.map((id) => byId[id] as number),
        ),
      ),
    );
    assert.equal(combined.debias?.order_sensitivity, 0);
    assert.deepEqual(combined.option_ids, ["a", "b", "c"]);
    combined.probabilities.forEach((p, index) => {
      assert.ok(Math.abs(p - (byId[options[index]?.id ?? ""] as number)) < 1e-15);
    });
    assert.equal(combined.debias?.rotations, 3);
    assert.deepEqual(combined.debias?.prompt_sha256s, ["abc", "bca", "cab"]);
    assert.equal(combined.input_tokens, 30);
    assert.equal(combined.evaluated_tokens, 12);
    assert.equal(combined.readout.option_logits, "log of the probability averaged over option rotations");
  });

  it("averages per option id, reports the largest spread, and does not depend on the rotations' order", () => {
    const rotations = [result(["a", "b", "c"], [0.6, 0.3, 0.1]), result(["b", "c", "a"], [0.5, 0.2, 0.3])];
    const combined = combineRotations(options, rotations);
    assert.ok(Math.abs((combined.probabilities[0] ?? 0) - 0.45) < 1e-15);
    assert.ok(Math.abs((combined.probabilities[1] ?? 0) - 0.4) < 1e-15);
    assert.ok(Math.abs((combined.debias?.order_sensitivity ?? 0) - 0.3) < 1e-15);
    const reversed = combineRotations([...options].reverse(), [...rotations].reverse());
    for (const id of ["a", "b", "c"]) {
      assert.equal(
        reversed.probabilities[reversed.option_ids.indexOf(id)],
        combined.probabilities[combined.option_ids.indexOf(id)],
      );
    }
    assert.equal(reversed.debias?.order_sensitivity, combined.debias?.order_sensitivity);
  });
});
