import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classifyInvocation } from "../../../adapter/server/classifyInvocation.js";
import type { Problem, RequestLimits, Validation } from "../../../adapter/server/types.js";
import { validateRequest } from "../../../adapter/server/validateRequest.js";
import { findReservedToken } from "../../../contract/wire/reservedText.js";

const validateSystemOneRequest = (body: unknown, limits: RequestLimits) =>
  validateRequest("systemone", body, limits);
const validateChatRequest = (body: unknown, limits: RequestLimits) => validateRequest("chat", body, limits);

const LIMITS: RequestLimits = {
  maxOptions: 26,
  maxQuestions: 3,
  maxPromptTokens: 4096,
  maxRequestTokens: 32768,
  maxCompletionTokens: 64,
};

function problemsOf(validation: Validation<unknown>): string[] {
  return validation.ok ? [] : validation.problems.map((p: Problem) => `${p.field}: ${p.message}`);
}

describe("validateSystemOneRequest", () => {
  it("accepts one question of each type and keeps the request as sent", () => {
    const request = {
      model: "semif",
      state: ["a", { b: 1 }],
      questions: {
        team: { type: "choice", instructions: "Which team?", criteria: { web: "Web", payments: null } },
        only: { type: "choice", instructions: "Pick", criteria: ["the only one"] },
        level: { type: "score", instructions: "How bad?", criteria: ["minor", "major"] },
        down: { type: "noul", instructions: "Down?" },
      },
    };
    const validation = validateSystemOneRequest(request, { ...LIMITS, maxQuestions: 4 });
    assert.ok(validation.ok, JSON.stringify(validation));
    assert.ok(validation.value.kind === "systemone");
    assert.deepEqual(validation.value.request, request);
  });

  it("reports every problem, each naming its field", () => {
    const validation = validateSystemOneRequest(
      {
        model: 3,
        state: null,
        questions: {
          a: { type: "choice", instructions: "", criteria: ["x", "y", "x"] },
          b: { type: "score", instructions: "ok", criteria: ["only one"] },
          c: { type: "noul", instructions: "ok", criteria: { true: "yes", maybe: "?" } },
        },
        extra: 1,
      },
      LIMITS,
    );
    assert.deepEqual(problemsOf(validation).sort(), [
      "extra: unsupported field (expected model, state, questions)",
      "model: must be a string, got a number",
      'questions.a.criteria[2]: duplicate label "x" (first at questions.a.criteria[0])',
      "questions.a.instructions: must not be empty",
      "questions.b.criteria: needs at least 2 levels, got 1",
      "questions.c.criteria.maybe: unsupported field (expected true, false)",
      "state: must be a string, an object or an array, got null",
    ]);
  });

  it("caps choice labels at the model's alphabet and the API's 255", () => {
    const criteria = Array.from({ length: 27 }, (_, i) => `label ${i}`);
    const validation = validateSystemOneRequest(
      { state: "s", questions: { q: { type: "choice", instructions: "i", criteria } } },
      LIMITS,
    );
    assert.deepEqual(problemsOf(validation), [
      "questions.q.criteria: allows at most 26 labels (the size of this model's verified label alphabet and the configured limit), got 27",
    ]);
    const api = validateSystemOneRequest(
      {
        state: "s",
        questions: {
          q: {
            type: "choice",
            instructions: "i",
            criteria: [...criteria, ...Array.from({ length: 230 }, (_, i) => `more ${i}`)],
          },
        },
      },
      { ...LIMITS, maxOptions: 1000 },
    );
    assert.match(problemsOf(api)[0] ?? "", /at most 255 labels \(the API's limit\), got 257/);
  });

  it("refuses too many questions, a missing type, and reserved text in ids, labels and descriptions", () => {
    const validation = validateSystemOneRequest(
      {
        state: { "<think>": "x" },
        questions: {
          "q<|im_end|>": { type: "noul", instructions: "i" },
          t: { instructions: "i" },
          l: { type: "choice", instructions: "i", criteria: { "<|im_start|>": null, ok: "</think>" } },
          extra: { type: "noul", instructions: "i" },
        },
      },
      LIMITS,
    );
    assert.deepEqual(problemsOf(validation), [
      'state: key "<think>" contains the reserved chat-control text "<think>"',
      "questions: allows at most 3 questions, got 4",
    ]);
    const within = validateSystemOneRequest(
      {
        state: "s",
        questions: {
          "q<|im_end|>": { type: "noul", instructions: "i" },
          t: { instructions: "i" },
          l: { type: "choice", instructions: "i", criteria: { "<|im_start|>": null, ok: "</think>" } },
        },
      },
      LIMITS,
    );
    assert.deepEqual(problemsOf(within), [
      'questions["q<|im_end|>"]: contains the reserved chat-control text "<|im_end|>"',
      "questions.t.type: is required (one of choice, score, noul)",
      'questions.l.criteria["<|im_start|>"]: contains the reserved chat-control text "<|im_start|>"',
      'questions.l.criteria.ok: contains the reserved chat-control text "</think>"',
    ]);
  });

  it("refuses __proto__ as a question id", () => {
    const body = JSON.parse(
      '{"state": "s", "questions": {"__proto__": {"type": "noul", "instructions": "i"}}}',
    );
    assert.deepEqual(problemsOf(validateSystemOneRequest(body, LIMITS)), [
      'questions.__proto__: "__proto__" is a reserved name',
    ]);
  });
});

describe("validateChatRequest", () => {
  it("accepts the OpenAI fields it supports", () => {
    const validation = validateChatRequest(
      {
        model: "m",
        messages: [
          { role: "system", content: "" },
          { role: "user", content: "hi" },
        ],
        max_tokens: 5,
        temperature: 0,
        stream: false,
      },
      LIMITS,
    );
    assert.ok(validation.ok && validation.value.kind === "chat");
    assert.deepEqual(validation.value.request, {
      messages: [
        { role: "system", content: "" },
        { role: "user", content: "hi" },
      ],
      maxTokens: 5,
      temperature: 0,
    });
    assert.equal(validation.value.model, "m");
  });

  it("reports every problem of a chat request", () => {
    const validation = validateChatRequest(
      {
        messages: [
          { role: "tool", content: "x" },
          { role: "user", content: [{ type: "text" }] },
          { role: "user", content: "<|im_start|>system" },
        ],
        max_tokens: 65,
        temperature: 3,
        stream: true,
        top_p: 1,
      },
      LIMITS,
    );
    // Every problem, in the schema's field order (unsupported fields last).
    assert.deepEqual(problemsOf(validation), [
      'messages[0].role: must be one of system, user, assistant, got "tool"',
      "messages[1].content: must be a string (content parts are not supported), got an array",
      'messages[2].content: contains the reserved chat-control text "<|im_start|>"',
      "max_tokens: must be an integer from 1 to 64",
      "stream: streaming is not supported; omit stream or send false",
      "temperature: must be a number from 0 to 2",
      "top_p: unsupported field (expected messages, max_tokens, stream, temperature, model)",
    ]);
  });
});

describe("classifyInvocation", () => {
  it("tells the three formats apart by shape, and refuses mixtures and unknown shapes", () => {
    assert.deepEqual(classifyInvocation({ decision: {} }), { ok: true, kind: "semif" });
    assert.deepEqual(classifyInvocation({ decisions: [] }), { ok: true, kind: "semif" });
    assert.deepEqual(classifyInvocation({ state: "s", questions: {} }), { ok: true, kind: "systemone" });
    assert.deepEqual(classifyInvocation({ messages: [] }), { ok: true, kind: "chat" });
    const mixed = classifyInvocation({ decision: {}, messages: [] });
    assert.ok(!mixed.ok && /mixes fields .*decision, messages/.test(mixed.problem.message));
    assert.equal(classifyInvocation([1]).ok, false);
    assert.equal(classifyInvocation({ state: "s" }).ok, false);
  });
});

describe("findReservedToken", () => {
  it("finds ChatML, thinking, tool and any <|name|> control text, first one first", () => {
    assert.equal(findReservedToken("plain <b>text</b> with | pipes"), undefined);
    assert.equal(findReservedToken("a <think> b <|im_end|>"), "<think>");
    assert.equal(findReservedToken("a <|eot_id|> b </think>"), "<|eot_id|>");
    assert.equal(findReservedToken("<|endoftext|>"), "<|endoftext|>");
    assert.equal(findReservedToken("x</tool_call>"), "</tool_call>");
  });
});
