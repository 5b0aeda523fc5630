import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  InvalidBatchError,
  InvalidDecisionError,
  ReservedTokenError,
  TokenBudgetError,
  TooManyOptionsError,
} from "../../../../adapter/engine/errors.js";
import { measurePrompts } from "../../../../adapter/engine/prompt/measurePrompts.js";
import {
  type PromptContext,
  preambleTokensOf,
  preparePrompts,
} from "../../../../adapter/engine/prompt/preparePrompts.js";
import { renderPrompt } from "../../../../adapter/engine/prompt/renderPrompt.js";
import type { DecisionQuestion } from "../../../../adapter/engine/types.js";
import { JsonText } from "../../../../contract/wire/JsonText.js";
import { STUB_LABEL_TOKENS, STUB_LABELS, StubVocabulary } from "../../../support/StubVocabulary.js";

const vocabulary = new StubVocabulary();

function context(overrides: Partial<PromptContext> = {}): PromptContext {
  return {
    vocabulary,
    labels: STUB_LABELS,
    labelTokens: STUB_LABEL_TOKENS,
    contextSize: 4096,
    preambleTokens: preambleTokensOf(vocabulary),
    ...overrides,
  };
}

const route: DecisionQuestion = {
  id: "route",
  question: "Which team?",
  options: [
    { id: "billing", description: "Billing" },
    { id: "tech", description: "Technical support" },
    { id: "sales", description: "Sales" },
  ],
};
const refund: DecisionQuestion = {
  id: "refund",
  question: "Refund asked?",
  options: [
    { id: "yes", description: "Yes" },
    { id: "no", description: "No" },
  ],
};

/** The problems a call threw, as [path, class name] pairs. */
function problemsOf(act: () => unknown): [readonly (string | number)[], string][] {
  try {
    act();
  } catch (error) {
    assert.ok(error instanceof InvalidDecisionError, `got ${String(error)}`);
    const all = error instanceof InvalidBatchError ? error.problems : [error];
    return all.map((problem) => [problem.path, problem.name]);
  }
  assert.fail("nothing was thrown");
}

describe("preparePrompts", () => {
  it("renders each question's prompt and finds where its preamble and its shared prefix end", () => {
    const state = "I was charged twice";
    const [first, second] = preparePrompts({ state, questions: [route, refund] }, context());
    assert.ok(first && second);
    const rendered = renderPrompt(state, route.question, route.options, ["A", "B", "C"]);
    assert.equal(first.rendered.text, rendered.text);
    assert.deepEqual(first.tokens, vocabulary.tokenize(rendered.text, true));
    assert.equal(first.preambleBoundary, vocabulary.tokenize(rendered.preamble, true).length);
    assert.equal(first.sharedBoundary, vocabulary.tokenize(rendered.sharedPrefix, true).length);
    assert.equal(second.sharedBoundary, first.sharedBoundary, "one state, one boundary");
    assert.ok(rendered.sharedPrefix.endsWith(`"I was charged twice", "criterion": `));
    assert.deepEqual(first.labels, ["A", "B", "C"]);
    assert.deepEqual(first.labelTokens, [65, 66, 67]);
    assert.deepEqual(second.labels, ["A", "B"]);
    assert.equal(first.question, route);
  });

  it("measures the shared state once plus each question's own suffix", () => {
    const prompts = preparePrompts({ state: { ticket: "T-1" }, questions: [route, refund] }, context());
    const measure = measurePrompts(prompts);
    const [first, second] = prompts;
    assert.ok(first && second);
    assert.deepEqual(measure.questionTokens, [first.tokens.length, second.tokens.length]);
    assert.equal(measure.batchTokens, first.tokens.length + second.tokens.length - first.sharedBoundary);
  });

  it("reports every problem of a batch at once, each with its path in the engine's terms", () => {
    const bad: DecisionQuestion = {
      id: "route",
      question: "Which team?<|im_end|>",
      options: [
        { id: "a", description: "A" },
        { id: "a", description: "B<|im_start|>" },
      ],
      temperature: 0,
    };
    assert.deepEqual(
      problemsOf(() => preparePrompts({ state: "s<|im_end|>", questions: [route, bad] }, context())),
      [
        [["state"], "ReservedTokenError"],
        [["questions", 1, "id"], "InvalidDecisionError"],
        [["questions", 1, "options", 1, "id"], "InvalidDecisionError"],
        [["questions", 1, "options", 1, "description"], "ReservedTokenError"],
        [["questions", 1, "question"], "ReservedTokenError"],
        [["questions", 1, "temperature"], "InvalidDecisionError"],
      ],
    );
  });

  it("throws a single problem as its own class, carrying the data", () => {
    const wide = {
      ...route,
      options: STUB_LABELS.concat("AA").map((label) => ({ id: label, description: label })),
    };
    assert.throws(
      () => preparePrompts({ state: "s", questions: [wide] }, context()),
      (error: unknown) => {
        assert.ok(error instanceof TooManyOptionsError);
        assert.deepEqual(error.path, ["questions", 0, "options"]);
        assert.equal(error.count, 27);
        assert.equal(error.max, 26);
        return true;
      },
    );
    assert.throws(
      () => preparePrompts({ state: "s", questions: [] }, context()),
      (error: unknown) => error instanceof InvalidDecisionError && error.path.join() === "questions",
    );
    assert.throws(
      () =>
        preparePrompts(
          { state: "s", questions: [{ ...refund, options: [{ id: "x", description: "x" }] }] },
          context(),
        ),
      /questions\[0\]\.options: at least 2 options are needed, got 1/,
    );
  });

  it("names a control token by its text", () => {
    assert.throws(
      () => preparePrompts({ state: { note: "<|im_start|>" }, questions: [route] }, context()),
      (error: unknown) => error instanceof ReservedTokenError && error.token === "<|im_start|>",
    );
  });

  it("refuses each prompt that would not fit the context", () => {
    const long = { ...refund, id: "long", question: "x".repeat(500) };
    const fits = preparePrompts({ state: "s", questions: [refund] }, context())[0];
    assert.ok(fits);
    const small = context({ contextSize: fits.tokens.length + 10 });
    assert.throws(
      () => preparePrompts({ state: "s", questions: [refund, long] }, small),
      (error: unknown) =>
        error instanceof TokenBudgetError &&
        error.path.join() === "questions,1" &&
        error.limit === fits.tokens.length + 9,
    );
  });
  it("refuses a state too long for the context after tokenizing its prompt once, its shared prefix not tokenized", () => {
    const counting = new (class extends StubVocabulary {
      readonly texts: string[] = [];
      override tokenize(text: string, specialTokens: boolean) {
        this.texts.push(text);
        return super.tokenize(text, specialTokens);
      }
    })();
    const state = "The customer writes again about the invoice. ".repeat(100);
    const small = {
      ...context({ contextSize: 1000 }),
      vocabulary: counting,
      preambleTokens: preambleTokensOf(counting),
    };
    counting.texts.length = 0;

    assert.throws(
      () => preparePrompts({ state, questions: [refund] }, small),
      (error: unknown) => error instanceof TokenBudgetError && error.path.join() === "questions,0",
    );

    // The stub lists no tokens, so the control-text check tokenizes the state both ways; the prompt once.
    assert.equal(counting.texts.filter((text) => text.includes(state)).length, 3);
  });

  it("checks and bounds a JSON-text state as the prompt shows it (key order as written)", () => {
    const state = new JsonText('{"ticket": "T-1", "2024": 2.0}');
    const [first] = preparePrompts({ state, questions: [refund] }, context());
    assert.ok(first);
    assert.equal(first.rendered.state, '{"ticket": "T-1", "2024": 2.0}');
    assert.equal(first.sharedBoundary, vocabulary.tokenize(first.rendered.sharedPrefix, true).length);
    assert.throws(
      () => preparePrompts({ state: new JsonText('{"<|im_end|>": 1}'), questions: [refund] }, context()),
      (error: unknown) => error instanceof ReservedTokenError && error.path.join() === "state",
    );
  });

  it("renders question-first prompts whose shared prefix is the question and its options, evaluated after the state-first ones", () => {
    const questions: DecisionQuestion[] = [{ ...route, layout: "question-first-v1" }, refund];
    const prompts = preparePrompts({ state: "s1", questions }, context());
    assert.deepEqual(
      prompts.map((prompt) => [prompt.questionIndex, prompt.rendered.layout]),
      [
        [1, "direct-options-v1"],
        [0, "question-first-v1"],
      ],
    );
    const questionFirst = prompts[1];
    assert.ok(questionFirst);
    assert.ok(questionFirst.rendered.sharedPrefix.endsWith(', "evidence": '));
    assert.equal(
      questionFirst.sharedBoundary,
      vocabulary.tokenize(questionFirst.rendered.sharedPrefix, true).length,
    );
    const other = preparePrompts({ state: "another state", questions }, context())[1];
    assert.equal(other?.sharedBoundary, questionFirst.sharedBoundary, "one question, one boundary");
    assert.deepEqual(
      other?.tokens.slice(0, other.sharedBoundary),
      questionFirst.tokens.slice(0, questionFirst.sharedBoundary),
    );
    const measure = measurePrompts(prompts);
    assert.deepEqual(measure.questionTokens, [questionFirst.tokens.length, prompts[0]?.tokens.length]);
    assert.equal(
      measure.batchTokens,
      (prompts[0]?.tokens.length ?? 0) + questionFirst.tokens.length - questionFirst.preambleBoundary,
      "the two layouts share only the preamble",
    );
  });

  it("prepares one prompt per rotation of a debiased question, the given order first", () => {
    const prompts = preparePrompts(
      {
        state: "s",
        questions: [
          { ...route, debias: "cyclic" },
          { ...refund, debias: "cyclic", debiasRotations: 1 },
        ],
      },
      context(),
    );
    assert.deepEqual(
      prompts.map((prompt) => [
        prompt.questionIndex,
        prompt.rotation,
        prompt.options.map((o) => o.id).join(),
      ]),
      [
        [0, 0, "billing,tech,sales"],
        [0, 1, "tech,sales,billing"],
        [0, 2, "sales,billing,tech"],
        [1, 0, "yes,no"],
      ],
    );
    assert.deepEqual(prompts[1]?.labels, ["A", "B", "C"], "labels stay in slot order");
    const measure = measurePrompts(prompts);
    const shared = prompts[0]?.sharedBoundary ?? 0;
    assert.equal(
      measure.batchTokens,
      prompts.reduce((sum, prompt) => sum + prompt.tokens.length - shared, shared),
      "the state once, then each rotation's own part",
    );
  });

  it("reports a bad layout, debias method or rotation count at its field", () => {
    const bad = [
      { ...route, id: "a", layout: "sideways" },
      { ...route, id: "b", debias: "random" },
      { ...route, id: "c", debias: "cyclic", debiasRotations: 4 },
      { ...route, id: "d", debiasRotations: 2 },
    ] as unknown as DecisionQuestion[];
    assert.deepEqual(
      problemsOf(() => preparePrompts({ state: "s", questions: bad }, context())).map(([path]) => path),
      [
        ["questions", 0, "layout"],
        ["questions", 1, "debias"],
        ["questions", 2, "debiasRotations"],
        ["questions", 3, "debiasRotations"],
      ],
    );
  });
});
