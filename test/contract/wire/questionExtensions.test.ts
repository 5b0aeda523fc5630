/** The optional per-question extension fields of SemIf and System One: layout and debiasing. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  problemsOf,
  SemIfRequestSchema,
  SystemOneAnswerSchema,
  SystemOneRequestSchema,
  semIfRequestSchemas,
} from "../../../contract/wire/index.js";

const single = semIfRequestSchemas().single;

const format = (path: readonly (string | number)[]): string => path.map(String).join(".");

function problems(result: {
  success: boolean;
  error?: { issues: Parameters<typeof problemsOf>[0] };
}): string[] {
  return result.error === undefined
    ? []
    : problemsOf(result.error.issues, format).map((problem) => `${format(problem.path)}: ${problem.message}`);
}

const options = [
  { id: "billing", description: "Billing" },
  { id: "technical", description: "Technical" },
];

describe("question extension fields", () => {
  it("accept a layout and debiasing on a SemIf decision and on each System One question type", () => {
    const decision = {
      id: "d",
      state: "s",
      question: "q",
      options,
      layout: "question-first-v1",
      debias: "cyclic",
    };
    assert.deepEqual(
      problems(SemIfRequestSchema.safeParse({ decision: { ...decision, debias_rotations: 2 } })),
      [],
    );
    const request = {
      state: "s",
      questions: {
        a: { type: "choice", instructions: "q", criteria: ["x", "y", "z"], layout: "auto", debias: "cyclic" },
        b: {
          type: "score",
          instructions: "q",
          criteria: ["low", "high"],
          debias: "cyclic",
          debias_rotations: 1,
        },
        c: { type: "noul", instructions: "q", layout: "direct-options-v1" },
      },
    };
    assert.deepEqual(problems(SystemOneRequestSchema.safeParse(request)), []);
  });

  it("name a bad layout, debias method or rotation count at its field", () => {
    const decision = { id: "d", state: "s", question: "q", options };
    assert.deepEqual(
      problems(single.safeParse({ decision: { ...decision, layout: "sideways" } })).map((p) =>
        p.replace(/: .*/, ""),
      ),
      ["decision.layout"],
    );
    assert.deepEqual(
      problems(
        SemIfRequestSchema.safeParse({ decision: { ...decision, debias: "cyclic", debias_rotations: 3 } }),
      ),
      ["decision.debias_rotations: must be at most the number of options (2), got 3"],
    );
    assert.deepEqual(problems(single.safeParse({ decision: { ...decision, debias_rotations: 1 } })), [
      'decision.debias_rotations: needs debias "cyclic"',
    ]);
    const request = {
      state: "s",
      questions: { a: { type: "choice", instructions: "q", criteria: ["x", "y"], debias: "random" } },
    };
    assert.deepEqual(problems(SystemOneRequestSchema.safeParse(request)), [
      'questions.a.debias: must be "cyclic"',
    ]);
  });

  it("let an answer say its layout and order sensitivity", () => {
    const answer = {
      type: "choice",
      choice: "x",
      confidence: 0.6,
      probabilities: { x: 0.6, y: 0.4 },
      prompt_version: "question-first-v1",
      debias: { method: "cyclic", rotations: 2, order_sensitivity: 0.1 },
    };
    assert.deepEqual(SystemOneAnswerSchema.parse(answer), answer);
  });
});
