/**
 * Fuzzing the System One and chat routes with adversarial bodies (issue 11, "Bad input"): raw JSON
 * the serializer never writes (duplicate keys, 1e400, lone surrogates, deep nesting), hostile ids
 * and labels (`__proto__`, chat-control text, lone surrogates), wrong types, huge texts. Never a
 * 5xx, the server stays up. `PROPERTY_RUNS` sets the cases per route (default 300).
 */
import assert from "node:assert/strict";
import { Agent } from "node:http";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import {
  HOSTILE_KEYS,
  hostileJson,
  hostileString,
  propertyRuns,
  RAW_FRAGMENTS,
} from "../../../lab/reliability/index.js";
import { send } from "./httpClient.js";
import { type Harness, startFakeServer } from "./serverHarness.js";

const RUNS = propertyRuns(process.env, 300);
const PLACEHOLDER = "\u0000fragment\u0000";

const SYSTEM_ONE = {
  state: { ticket: "Checkout fails", tier: "gold" },
  questions: {
    team: { type: "choice", instructions: "Which team?", criteria: { web: "Web.", payments: null } },
    level: { type: "score", instructions: "How bad?", criteria: ["minor", "major"] },
    down: { type: "noul", instructions: "Is it down?", criteria: { true: "down", false: "up" } },
  },
};
const CHAT = {
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "hi" },
  ],
  max_tokens: 3,
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` with the node at `steps` replaced, or (`asKey`) a member with key `replacement` added there. */
function mutate(value: Json, steps: readonly number[], replacement: Json, asKey = false): Json {
  const [step, ...rest] = steps;
  if (value === null || typeof value !== "object") return replacement;
  if (step === undefined) {
    if (asKey && !Array.isArray(value)) return { [String(replacement)]: PLACEHOLDER, ...value };
    return replacement;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const index = step % value.length;
    return value.map((item, i) => (i === index ? mutate(item, rest, replacement, asKey) : item));
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[step % keys.length] ?? "";
  return { ...value, [key]: mutate(value[key] ?? null, rest, replacement, asKey) };
}

function bodiesFrom(base: Json): fc.Arbitrary<string> {
  const steps = fc.array(fc.nat(), { maxLength: 5 });
  return fc.oneof(
    fc
      .record({ steps, value: fc.oneof(hostileJson(3), hostileString(60)) })
      .map(({ steps: at, value }) => JSON.stringify(mutate(base, at, value as Json))),
    fc
      .record({ steps, fragment: fc.constantFrom(...RAW_FRAGMENTS) })
      .map(({ steps: at, fragment }) =>
        JSON.stringify(mutate(base, at, PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), fragment),
      ),
    fc
      .record({
        steps,
        key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS, "team", "messages"), hostileString(10)),
      })
      .map(({ steps: at, key }) =>
        // The key is spliced in as text beside its siblings, so a key already there is sent twice.
        JSON.stringify(mutate(base, at, key, true)).replace(JSON.stringify(PLACEHOLDER), '"x"'),
      ),
    fc.constantFrom(10_000, 20_000).map((size) => JSON.stringify(mutate(base, [0], "y".repeat(size)))),
  );
}

describe("DecisionServer's System One and chat routes under adversarial bodies", () => {
  let h: Harness;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  before(async () => {
    h = await startFakeServer({ maxBodyBytes: 16 * 1024 });
  });
  after(async () => {
    agent.destroy();
    await h.close();
  });

  for (const [path, base] of [
    ["/v1/systemone", SYSTEM_ONE],
    ["/invocations", SYSTEM_ONE],
    ["/v1/chat/completions", CHAT],
  ] as const) {
    it(`answers every body at ${path} (${path === "/v1/chat/completions" ? "chat" : "System One"}) with 200, 400 or 413 and stays up`, async () => {
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(bodiesFrom(base as unknown as Json), async (body) => {
          const response = await send(h.port, { path, body, agent });
          assert.ok(
            [200, 400, 413].includes(response.status),
            `${response.status}: ${response.text.slice(0, 300)}`,
          );
          if (response.status !== 200) {
            refused += 1;
            assert.equal(response.json.retryable, false);
            assert.ok(
              Array.isArray(response.json.problems) && response.json.problems.length > 0,
              response.text,
            );
          }
        }),
        { numRuns: RUNS },
      );
      assert.ok(refused > 0);
      assert.equal((await send(h.port, { path: "/ping" })).status, 200);
      assert.equal(h.logger.events("handler_failed").length, 0);
      assert.equal(h.logger.events("request_failed").length, 0);
    });
  }
});
