/** A policy question's endpoint fields (prompt layout, debiasing) reach the System One request. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PolicyLoadError, parsePolicy } from "../../../core/policy/index.js";

const policy = (fields: string): string => `name: layout-policy
version: "1"
description: A policy asking its question in the question-first layout.
questions:
  route:
    type: choice
    instructions: Which team?
    criteria: [billing, technical, legal]
    threshold: 0.5
    fallback: technical
${fields}`;

describe("policy endpoint fields", () => {
  it("pass layout and debiasing through systemOneQuestions()", () => {
    const parsed = parsePolicy(
      policy("    layout: question-first-v1\n    debias: cyclic\n    debias_rotations: 2\n"),
      "layout-policy.yaml",
    );
    assert.deepEqual(parsed.systemOneQuestions(), {
      route: {
        type: "choice",
        instructions: "Which team?",
        criteria: ["billing", "technical", "legal"],
        layout: "question-first-v1",
        debias: "cyclic",
        debias_rotations: 2,
      },
    });
    assert.deepEqual(Object.keys(parsePolicy(policy(""), "p.yaml").systemOneQuestions().route ?? {}), [
      "type",
      "instructions",
      "criteria",
    ]);
  });

  it("refuse an unknown layout and more rotations than options", () => {
    for (const fields of ["    layout: sideways\n", "    debias: cyclic\n    debias_rotations: 4\n"]) {
      assert.throws(
        () => parsePolicy(policy(fields), "layout-policy.yaml"),
        (error: unknown) => error instanceof PolicyLoadError && error.problems.length === 1,
      );
    }
  });
});
