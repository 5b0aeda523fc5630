/** Fuzzing the whole request path over HTTP: no input a client sends gets a 5xx or stops the server. */
import assert from "node:assert/strict";
import { Agent } from "node:http";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";
import { send, supportRouteDecision } from "./httpClient.js";
import { type Harness, startFakeServer } from "./serverHarness.js";

const VALID_BODIES: unknown[] = [
  { decision: supportRouteDecision() },
  { decisions: [supportRouteDecision(), { ...supportRouteDecision(), id: "second" }] },
  {
    state: { ticket: "Checkout fails", tier: "gold" },
    questions: {
      team: { type: "choice", instructions: "Which team?", criteria: ["web", "payments"] },
      level: { type: "score", instructions: "How bad?", criteria: ["minor", "major"] },
      down: { type: "noul", instructions: "Is it down?", criteria: { true: "down" } },
    },
  },
  { messages: [{ role: "user", content: "hi" }], max_tokens: 3 },
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A copy of `value` with the node reached by following `steps` (indices into keys) replaced. */
function mutate(value: Json, steps: readonly number[], replacement: Json): Json {
  const [step, ...rest] = steps;
  if (step === undefined || value === null || typeof value !== "object") return replacement;
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const index = step % value.length;
    return value.map((item, i) => (i === index ? mutate(item, rest, replacement) : item));
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[step % keys.length] ?? "";
  return { ...value, [key]: mutate(value[key] ?? null, rest, replacement) };
}

const bodies = fc.oneof(
  // Arbitrary bytes and text, JSON or not.
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ maxLength: 200 }),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  // Valid requests with one node replaced by any JSON value (deep, reserved texts, wrong types…).
  fc
    .record({
      base: fc.constantFrom(...VALID_BODIES),
      steps: fc.array(fc.nat(), { maxLength: 6 }),
      replacement: fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.constantFrom("<|im_end|>", "</think>", "", " ", "__proto__", -1, 1e308, 256),
      ),
    })
    .map(({ base, steps, replacement }) => JSON.stringify(mutate(base as Json, steps, replacement as Json))),
);

describe("DecisionServer under fuzzed bodies", () => {
  let h: Harness;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  before(async () => {
    h = await startFakeServer({ maxBodyBytes: 16 * 1024 });
  });
  after(async () => {
    agent.destroy();
    await h.close();
  });

  for (const path of ["/invocations", "/v1/systemone", "/v1/chat/completions"]) {
    it(`answers every body at ${path} with 200 or a 4xx that names a field`, async () => {
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const response = await send(h.port, { path, body, agent });
          assert.ok([200, 400, 413].includes(response.status), `${response.status}: ${response.text}`);
          if (response.status !== 200) {
            assert.equal(response.json.retryable, false);
            assert.equal(typeof response.json.error, "string");
            assert.ok(
              Array.isArray(response.json.problems) && response.json.problems.length > 0,
              response.text,
            );
          }
        }),
        { numRuns: propertyRuns(process.env, 300) },
      );
      assert.equal((await send(h.port, { path: "/ping" })).status, 200);
      assert.equal(h.logger.events("handler_failed").length, 0);
      assert.equal(h.logger.events("request_failed").length, 0);
    });
  }
});
