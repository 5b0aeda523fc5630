/** Property tests of the request validators (fast-check); the JSON text scan's are in test/adapter/wire. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { classifyInvocation } from "../../../adapter/server/classifyInvocation.js";
import { formatFieldPath, type PathSegment } from "../../../adapter/server/fieldPath.js";
import type { RequestLimits, Validation } from "../../../adapter/server/types.js";
import { validateRequest } from "../../../adapter/server/validateRequest.js";
import { findReservedToken, RESERVED_TOKENS } from "../../../contract/wire/reservedText.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";

const LIMITS: RequestLimits = {
  maxOptions: 26,
  maxQuestions: 8,
  maxPromptTokens: 4096,
  maxRequestTokens: 32768,
  maxCompletionTokens: 64,
};

const VALIDATORS: ReadonlyArray<[string, (body: unknown) => Validation<unknown>]> = [
  ["SemIf", (body) => validateRequest("semif", body, LIMITS)],
  ["System One", (body) => validateRequest("systemone", body, LIMITS)],
  ["chat", (body) => validateRequest("chat", body, LIMITS)],
];

const validateSemIfRequest = (body: unknown, limits: RequestLimits) => validateRequest("semif", body, limits);

/** Text that is a usable id or description: non-blank, no reserved chat-control text. */
const cleanText = fc
  .string({ minLength: 1, maxLength: 12, unit: "grapheme" })
  .filter((text) => text.trim() !== "" && findReservedToken(text) === undefined && text !== "__proto__");

const decisionArbitrary = fc
  .record(
    {
      id: cleanText,
      state: fc.oneof(cleanText, fc.dictionary(cleanText, cleanText, { maxKeys: 3, noNullPrototype: true })),
      question: cleanText,
      options: fc.uniqueArray(
        fc.record({ id: cleanText, description: cleanText }, { noNullPrototype: true }),
        {
          minLength: 2,
          maxLength: 6,
          selector: (option) => option.id,
        },
      ),
    },
    { noNullPrototype: true },
  )
  .filter((decision) => JSON.stringify(decision.state).length > 2);

/** Every string of a JSON value and every object key, with their paths. */
function textsOf(value: unknown, path: PathSegment[] = []): Array<{ path: PathSegment[]; key: boolean }> {
  if (typeof value === "string") return [{ path, key: false }];
  if (Array.isArray(value)) return value.flatMap((item, index) => textsOf(item, [...path, index]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => [
      { path: [...path, key], key: true },
      ...textsOf(item, [...path, key]),
    ]);
  }
  return [];
}

/** A deep copy of `value` with the string (or key) at `path` changed by `change`. */
function withText(
  value: unknown,
  path: readonly PathSegment[],
  key: boolean,
  change: (text: string) => string,
): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return typeof value === "string" ? change(value) : value;
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? withText(item, rest, key, change) : item));
  const entries = Object.entries(value as Record<string, unknown>).map(([name, item]): [string, unknown] => {
    if (name !== head) return [name, item];
    if (rest.length === 0 && key) return [change(name), item];
    return [name, withText(item, rest, key, change)];
  });
  return Object.fromEntries(entries);
}

describe("request validators (properties)", () => {
  for (const [name, validate] of VALIDATORS) {
    it(`${name}: never throws on any JSON value, and a refusal always names at least one field`, () => {
      fc.assert(
        fc.property(fc.jsonValue(), (body) => {
          const validation = validate(body);
          if (!validation.ok) {
            assert.ok(validation.problems.length > 0);
            for (const problem of validation.problems) {
              assert.equal(typeof problem.field, "string");
              assert.ok(problem.field.length > 0 && problem.message.length > 0);
            }
          }
        }),
        { numRuns: propertyRuns(process.env, 500) },
      );
    });
  }

  it("classifies any JSON value without throwing", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const classification = classifyInvocation(body);
        if (!classification.ok) assert.equal(classification.problem.field, "body");
      }),
    );
  });

  it("accepts every well-formed decision and hands the engine exactly what was sent", () => {
    fc.assert(
      fc.property(decisionArbitrary, (decision) => {
        const validation = validateSemIfRequest({ decision }, LIMITS);
        assert.ok(validation.ok, JSON.stringify(validation));
        assert.deepEqual(validation.value.batch, {
          state: decision.state,
          questions: [{ id: decision.id, question: decision.question, options: decision.options }],
        });
      }),
    );
  });

  it("names the exact field when any text of a decision holds a reserved chat-control text", () => {
    const located = decisionArbitrary.chain((decision) =>
      fc.record({
        decision: fc.constant(decision),
        // Every text the caller supplies: values anywhere, keys inside the state (the others are field names).
        target: fc.constantFrom(
          ...textsOf(decision).filter((t) => !t.key || (t.path[0] === "state" && t.path.length > 1)),
        ),
        token: fc.constantFrom(...RESERVED_TOKENS, "<|start_header_id|>"),
        at: fc.nat(),
      }),
    );
    fc.assert(
      fc.property(located, ({ decision, target, token, at }) => {
        const forged = withText(decision, target.path, target.key, (text) => {
          const cut = at % (text.length + 1);
          return text.slice(0, cut) + token + text.slice(cut);
        });
        const validation = validateSemIfRequest({ decision: forged }, LIMITS);
        assert.equal(validation.ok, false);
        // A key is reported on the object holding it; a value at its own path.
        const field = formatFieldPath(["decision", ...(target.key ? target.path.slice(0, -1) : target.path)]);
        const fields = validation.ok ? [] : validation.problems.map((problem) => problem.field);
        assert.ok(fields.includes(field), `${field} in ${JSON.stringify(fields)}`);
      }),
    );
  });

  it("names the repeated option id, pointing at its first use", () => {
    fc.assert(
      fc.property(decisionArbitrary, fc.nat(), fc.nat(), (decision, a, b) => {
        const first = a % decision.options.length;
        const second = b % decision.options.length;
        fc.pre(first !== second);
        const [low, high] = first < second ? [first, second] : [second, first];
        const options = decision.options.map((option, index) =>
          index === high ? { ...option, id: decision.options[low]?.id ?? "" } : option,
        );
        const validation = validateSemIfRequest({ decision: { ...decision, options } }, LIMITS);
        assert.equal(validation.ok, false);
        const problem = validation.ok
          ? undefined
          : validation.problems.find((p) => p.field === `decision.options[${high}].id`);
        assert.ok(problem, JSON.stringify(validation));
        assert.match(problem.message, new RegExp(`first at decision\\.options\\[${low}\\]\\.id`));
      }),
    );
  });

  it("accepts shared decisions on one state with unique ids, and refuses one that differs in state", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(decisionArbitrary, { minLength: 2, maxLength: 5, selector: (d) => d.id }),
        fc.nat(),
        (list, pick) => {
          const state = list[0]?.state;
          const shared = list.map((decision) => ({ ...decision, state }));
          const validation = validateSemIfRequest({ decisions: shared }, LIMITS);
          assert.ok(validation.ok, JSON.stringify(validation));
          assert.equal(validation.value.batch.questions.length, list.length);
          const odd = 1 + (pick % (list.length - 1));
          const different = shared.map((decision, index) =>
            index === odd ? { ...decision, state: { other: [state] } } : decision,
          );
          const refused = validateSemIfRequest({ decisions: different }, LIMITS);
          assert.equal(refused.ok, false);
          assert.ok(!refused.ok && refused.problems.some((p) => p.field === `decisions[${odd}].state`));
        },
      ),
    );
  });
});
