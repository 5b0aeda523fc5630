import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ChatRequestSchema,
  ChatResponseSchema,
  problemsOf,
  SemIfRequestSchema,
  SemIfResponseSchema,
  SystemOneRequestSchema,
  SystemOneResponseSchema,
  semIfRequestSchemas,
  systemOneRequestSchema,
} from "../../../contract/wire/index.js";

const format = (path: readonly (string | number)[]): string =>
  path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");

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

describe("wire schemas", () => {
  it("accept the formats' example requests, with the format's own limits", () => {
    assert.ok(
      SemIfRequestSchema.safeParse({ decision: { id: "d", state: "s", question: "q", options } }).success,
    );
    assert.ok(
      SemIfRequestSchema.safeParse({ decisions: [{ id: "d", state: { a: 1 }, question: "q", options }] })
        .success,
    );
    assert.ok(
      SystemOneRequestSchema.safeParse({
        state: ["x"],
        questions: {
          team: { type: "choice", instructions: "Which?", criteria: { web: null, pay: "Payments" } },
          level: { type: "score", instructions: "How bad?", criteria: ["low", "high"] },
          down: { type: "noul", instructions: "Down?" },
        },
      }).success,
    );
    assert.ok(
      ChatRequestSchema.safeParse({ messages: [{ role: "user", content: "" }], stream: null }).success,
    );
  });

  it("report each problem at its path in the caller's terms (a list over its limit: only that)", () => {
    const { single } = semIfRequestSchemas({ maxOptions: 4 });
    const result = single.safeParse({
      decision: {
        id: "__proto__",
        state: "  ",
        question: 3,
        options: [
          ...options,
          { id: "billing", description: "" },
          { id: "x", description: "y", z: 1 },
          options[1],
        ],
        temperature: 0,
      },
    });
    assert.deepEqual(problems(result).sort(), [
      '.decision.id: "__proto__" is a reserved name',
      ".decision.options: allows at most 4 options (the API's limit), got 5",
      ".decision.question: must be a string, got a number",
      ".decision.state: must not be empty",
      ".decision.temperature: must be a positive finite number",
    ]);
  });

  it("name a repeated label of a choice list where it was first used, and the branch of criteria that fits", () => {
    const schema = systemOneRequestSchema();
    const list = schema.safeParse({
      state: "s",
      questions: { q: { type: "choice", instructions: "i", criteria: ["a", "b", "a", 3] } },
    });
    assert.deepEqual(problems(list), [".questions.q.criteria[3]: must be a string, got a number"]);
    const repeated = schema.safeParse({
      state: "s",
      questions: { q: { type: "choice", instructions: "i", criteria: ["a", "b", "a"] } },
    });
    assert.deepEqual(problems(repeated), [
      '.questions.q.criteria[2]: duplicate label "a" (first at .questions.q.criteria[0])',
    ]);
    const map = schema.safeParse({
      state: "s",
      questions: { q: { type: "choice", instructions: "i", criteria: { " ": null, b: 1 } } },
    });
    assert.deepEqual(problems(map).sort(), [
      ".questions.q.criteria. : a label must not be empty",
      ".questions.q.criteria.b: must be a string or null, got a number",
    ]);
  });

  it("refuse reserved text only when told what is reserved", () => {
    const request = {
      state: { "<x>": ["<x> inside"] },
      questions: { q: { type: "noul", instructions: "<x>" } },
    };
    assert.ok(SystemOneRequestSchema.safeParse(request).success);
    const strict = systemOneRequestSchema({
      findReservedText: (text) => (text.includes("<x>") ? "<x>" : undefined),
    });
    assert.deepEqual(problems(strict.safeParse(request)).sort(), [
      '.questions.q.instructions: contains the reserved chat-control text "<x>"',
      '.state.<x>[0]: contains the reserved chat-control text "<x>"',
      '.state: key "<x>" contains the reserved chat-control text "<x>"',
    ]);
  });

  it("accept the responses the adapter sends", () => {
    const result = {
      id: "d",
      option_ids: ["billing", "technical"],
      probabilities: [0.75, 0.25],
      option_logits: [-0.3, -1.4],
      prompt_sha256: "a".repeat(64),
      prompt_version: "direct-options-v1",
      readout: {
        mode: "label-only",
        option_logits: "log-probability relative to the slot set (softmax over slots)",
        labels: ["A", "B"],
        label_tokens: [32, 33],
        temperature: 1,
        slot_mass: null,
      },
      input_tokens: 80,
      evaluated_tokens: 10,
      cached_tokens: 70,
      timing: { tokenize_ms: 1, prefill_ms: 2, readout_ms: 3, queue_ms: 0, total_ms: 6 },
      model: "tiny",
    };
    assert.ok(SemIfResponseSchema.safeParse({ result }).success);
    assert.ok(
      SemIfResponseSchema.safeParse({
        results: [result],
        timing: { queue_ms: 0, total_ms: 6, shared_prefix_tokens: 70 },
      }).success,
    );
    assert.equal(SemIfResponseSchema.safeParse({ result: { ...result, prompt_sha256: "x" } }).success, false);
    assert.ok(
      SystemOneResponseSchema.safeParse({
        model: "tiny",
        answers: {
          team: { type: "choice", choice: "web", confidence: 0.6, probabilities: { web: 0.6, pay: 0.4 } },
          level: {
            type: "score",
            score: 0.4,
            confidence: 0.6,
            legend: ["low", "high"],
            probabilities: { 0: 0.6, 1: 0.4 },
          },
          down: { type: "noul", noul: 0.9 },
        },
        usage: { input_tokens: 100, output_tokens: 0 },
      }).success,
    );
    assert.ok(
      ChatResponseSchema.safeParse({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "tiny",
        choices: [{ index: 0, message: { role: "assistant", content: "A" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }).success,
    );
  });
});
