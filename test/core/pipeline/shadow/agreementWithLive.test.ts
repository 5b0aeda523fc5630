import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ShadowResult } from "../../../../contract/outcome/ShadowRecordSchema.js";
import { agreementWithLive } from "../../../../core/pipeline/index.js";

function answer(value: string | number | boolean, source: "model" | "rule" | "fallback" = "model") {
  return { answer: value, probability: 0.8, threshold: 0.5, source, distribution: {} };
}

describe("agreementWithLive", () => {
  it("counts the questions both answered and those whose standing answers are equal as text", () => {
    const live = {
      status: "decided" as const,
      answers: {
        route: answer("billing"),
        urgent: answer(true),
        level: answer(3),
        only_live: answer("x"),
      },
    };
    const result: ShadowResult = {
      status: "fallback",
      answers: { route: answer("technical", "fallback"), urgent: answer("yes"), level: answer("3") },
      rules_fired: [],
    };

    assert.deepEqual(agreementWithLive(live, result), { questions: 3, agreed: 2, statusChanged: true });
  });

  it("finds nothing to compare on an outcome without answers, and no status change on equal statuses", () => {
    const result: ShadowResult = { status: "rejected", rules_fired: [] };

    assert.deepEqual(agreementWithLive({ status: "rejected" }, result), {
      questions: 0,
      agreed: 0,
      statusChanged: false,
    });
  });
});
