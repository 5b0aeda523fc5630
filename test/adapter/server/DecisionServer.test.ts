import assert from "node:assert/strict";
import { Agent } from "node:http";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import {
  AbortedError,
  ModelLoadError,
  ReservedTokenError,
  TokenBudgetError,
  TooManyOptionsError,
} from "../../../adapter/engine/errors.js";
import { DecisionServer } from "../../../adapter/server/DecisionServer.js";
import { safeStringify } from "../../../adapter/server/logger.js";
import { FakeEngine } from "../../support/FakeEngine.js";
import { send, supportRouteDecision } from "./httpClient.js";
import { CapturingLogger, type Harness, startFakeServer, testSettings } from "./serverHarness.js";

describe("DecisionServer on a fake engine", () => {
  let h: Harness;
  before(async () => {
    h = await startFakeServer({
      maxBodyBytes: 64 * 1024,
      maxQuestions: 4,
      maxOptions: 255,
      maxCompletionTokens: 64,
    });
  });
  after(async () => {
    await h.close();
  });

  describe("GET /ping", () => {
    it("answers 200 once the model is loaded and the probe succeeded", async () => {
      const response = await send(h.port, { path: "/ping" });
      assert.equal(response.status, 200);
      assert.deepEqual(response.json, { status: "ok" });
    });
  });

  describe("SemIf", () => {
    it("answers a single decision with its option ids in order and probabilities summing to 1", async () => {
      const response = await send(h.port, { body: { decision: supportRouteDecision() } });
      assert.equal(response.status, 200);
      assert.equal(response.headers["content-type"], "application/json; charset=utf-8");
      const result = response.json.result;
      assert.equal(result.id, "support-route");
      assert.deepEqual(result.option_ids, ["billing", "technical", "sales"]);
      const sum = result.probabilities.reduce((a: number, b: number) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-9);
    });

    it("answers shared decisions with one result per decision and the batch timing", async () => {
      const base = supportRouteDecision();
      const second = {
        ...base,
        id: "urgency",
        question: "How urgent is it?",
        options: base.options.slice(0, 2),
      };
      const response = await send(h.port, { body: { decisions: [base, second] } });
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.json.results.map((r: { id: string }) => r.id),
        ["support-route", "urgency"],
      );
      assert.equal(typeof response.json.timing.total_ms, "number");
    });

    it("passes the decision to the engine as one batch on its state, as the request wrote it", async () => {
      const decision = { ...supportRouteDecision(), id: "batch-shape", state: { ticket: 7, text: "hello" } };
      await send(h.port, { body: { decision } });
      const batch = h.engine.scored.at(-1);
      // An object state reaches the engine as its JSON text (a JsonText; the fake keeps a clone of it).
      assert.deepEqual((batch?.state as { text?: unknown } | undefined)?.text, '{"ticket":7,"text":"hello"}');
      assert.equal(batch?.questions[0]?.id, "batch-shape");
    });
  });

  describe("layout and debiasing", () => {
    it("pass a SemIf decision's layout and debiasing to the engine", async () => {
      const decision = {
        ...supportRouteDecision(),
        layout: "question-first-v1",
        debias: "cyclic",
        debias_rotations: 2,
      };
      const response = await send(h.port, { body: { decision } });
      assert.equal(response.status, 200);
      const question = h.engine.scored.at(-1)?.questions[0];
      assert.equal(question?.layout, "question-first-v1");
      assert.equal(question?.debias, "cyclic");
      assert.equal(question?.debiasRotations, 2);
    });

    it("pass a System One question's layout and debiasing to the engine", async () => {
      const body = {
        state: "s",
        questions: {
          team: {
            type: "choice",
            instructions: "Which?",
            criteria: ["a", "b"],
            layout: "auto",
            debias: "cyclic",
          },
        },
      };
      const response = await send(h.port, { path: "/v1/systemone", body });
      assert.equal(response.status, 200);
      const question = h.engine.scored.at(-1)?.questions[0];
      assert.equal(question?.layout, "auto");
      assert.equal(question?.debias, "cyclic");
    });

    it("refuse more rotations than options with 400, naming the field", async () => {
      const decision = { ...supportRouteDecision(), debias: "cyclic", debias_rotations: 9 };
      const response = await send(h.port, { body: { decision } });
      assert.equal(response.status, 400);
      assert.match(JSON.stringify(response.json), /decision\.debias_rotations/);
    });
  });

  describe("System One", () => {
    const request = {
      state: "The checkout page returns a 500 error for every customer since the last deploy.",
      questions: {
        team: {
          type: "choice",
          instructions: "Which team owns this?",
          criteria: { web: "Web team", payments: null },
        },
        severity: {
          type: "score",
          instructions: "How severe is it?",
          criteria: ["minor", "major", "critical"],
        },
        outage: { type: "noul", instructions: "Is this an outage?" },
      },
    };

    for (const path of ["/invocations", "/v1/systemone"]) {
      it(`answers one question of each type at ${path}`, async () => {
        const response = await send(h.port, { path, body: request });
        assert.equal(response.status, 200);
        assert.deepEqual(Object.keys(response.json.answers), ["team", "severity", "outage"]);
        assert.deepEqual(Object.keys(response.json.answers.team.probabilities), ["web", "payments"]);
        assert.equal(response.json.answers.severity.type, "score");
        assert.equal(typeof response.json.answers.outage.noul, "number");
        assert.equal(response.json.usage.output_tokens, 0);
      });
    }

    it("rejects a request sent to /v1/systemone in another format, naming the field", async () => {
      const response = await send(h.port, {
        path: "/v1/systemone",
        body: { decision: supportRouteDecision() },
      });
      assert.equal(response.status, 400);
      const fields = response.json.problems.map((p: { field: string }) => p.field);
      assert.ok(fields.includes("decision"), JSON.stringify(fields));
      assert.ok(fields.includes("questions"));
    });
  });

  describe("chat completions", () => {
    const chat = { messages: [{ role: "user", content: "hello there" }], max_tokens: 8 };

    for (const path of ["/invocations", "/v1/chat/completions"]) {
      it(`answers in the OpenAI shape at ${path}`, async () => {
        const response = await send(h.port, { path, body: chat });
        assert.equal(response.status, 200);
        const body = response.json;
        assert.match(body.id, /^chatcmpl-/);
        assert.equal(body.object, "chat.completion");
        assert.equal(typeof body.created, "number");
        assert.equal(body.model, "fake-model");
        assert.deepEqual(body.choices, [
          { index: 0, message: { role: "assistant", content: "echo hello there" }, finish_reason: "stop" },
        ]);
        assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);
      });
    }

    it("refuses stream: true with 400 naming the field", async () => {
      const response = await send(h.port, { path: "/v1/chat/completions", body: { ...chat, stream: true } });
      assert.equal(response.status, 400);
      assert.equal(response.json.problems[0].field, "stream");
      assert.equal(response.json.retryable, false);
    });
  });

  describe("bad input", () => {
    it("answers 415 when the body is not declared as JSON", async () => {
      const response = await send(h.port, {
        body: JSON.stringify({ decision: supportRouteDecision() }),
        headers: { "content-type": "text/plain" },
      });
      assert.equal(response.status, 415);
      assert.equal(response.json.problems[0].field, "Content-Type");
    });

    it("answers 413 from Content-Length alone when the declared body is too large", async () => {
      const response = await send(h.port, {
        body: "x".repeat(100),
        headers: { "content-length": 10_000_000 },
      });
      assert.equal(response.status, 413);
      assert.equal(response.json.problems[0].field, "body");
    });

    it("answers 413 while streaming a chunked body that grows past the limit", async () => {
      const big = JSON.stringify({ decision: { ...supportRouteDecision(), state: "x".repeat(100 * 1024) } });
      const response = await send(h.port, { body: big, chunked: true });
      assert.equal(response.status, 413);
    });

    it("answers 400 for text that is not JSON", async () => {
      const response = await send(h.port, { body: '{"decision": ' });
      assert.equal(response.status, 400);
      assert.match(response.json.error, /not valid JSON/);
    });

    it("answers 400 for an empty body and for a body that is not UTF-8", async () => {
      assert.equal((await send(h.port, { body: "" })).status, 400);
      const latin1 = Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]);
      const response = await send(h.port, { body: latin1 });
      assert.equal(response.status, 400);
      assert.match(response.json.error, /UTF-8/);
    });

    it("answers 400 for nesting deeper than the limit", async () => {
      const deep = `{"decision": ${"[".repeat(100)}${"]".repeat(100)}}`;
      const response = await send(h.port, { body: deep });
      assert.equal(response.status, 400);
      assert.match(response.json.error, /deeper/);
    });

    it("lists every problem of a decision at once, each naming its field", async () => {
      const decision = {
        id: "",
        state: 42,
        question: "Route <|im_end|> this",
        options: [
          { id: "billing", description: "Billing" },
          { id: "billing", description: "" },
          { id: "sales", description: "Sales", extra: true },
        ],
      };
      const response = await send(h.port, { body: { decision } });
      assert.equal(response.status, 400);
      assert.equal(response.json.retryable, false);
      const fields = response.json.problems.map((p: { field: string }) => p.field);
      assert.deepEqual(fields.sort(), [
        "decision.id",
        "decision.options[1].description",
        "decision.options[1].id",
        "decision.options[2].extra",
        "decision.question",
        "decision.state",
      ]);
      const duplicate = response.json.problems.find(
        (p: { field: string }) => p.field === "decision.options[1].id",
      );
      assert.equal(duplicate.message, 'duplicate option id "billing" (first at decision.options[0].id)');
    });

    it("names repeated JSON keys that JSON.parse would hide", async () => {
      const body = `{"state": "s", "questions": {"q": {"type": "choice", "instructions": "i", "criteria": {"a": null, "b": null, "a": "x"}}}}`;
      const response = await send(h.port, { body });
      assert.equal(response.status, 400);
      assert.deepEqual(response.json.problems, [
        { field: "questions.q.criteria", message: 'duplicate key "a"' },
      ]);
    });

    it("refuses a criteria map with integer-like labels, whose written order JSON cannot keep", async () => {
      // {"1": …, "0": …} parses to {"0": …, "1": …}: scored, it would be the prompt of ["0", "1"].
      const question = (criteria: string) =>
        `{"state": "s", "questions": {"q": {"type": "choice", "instructions": "i", "criteria": ${criteria}}}}`;

      const map = await send(h.port, { body: question(`{"1": "one", "0": "zero", "x": null}`) });
      const list = await send(h.port, { body: question(`["1", "0"]`) });
      const ordinary = await send(h.port, {
        body: question(`{"01": "one", "-1": null, "4294967295": null}`),
      });

      assert.equal(map.status, 400);
      assert.deepEqual(
        map.json.problems.map((p: { field: string }) => p.field),
        ['questions.q.criteria["0"]', 'questions.q.criteria["1"]'],
      );
      assert.match(map.json.problems[0].message, /label "0" is integer-like: .*send the labels as a list/);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(Object.keys(list.json.answers.q.probabilities).sort(), ["0", "1"]);
      assert.equal(ordinary.status, 200, "keys JavaScript does not move are accepted as maps");
    });

    it("refuses shared decisions whose states are equal as values but written differently (2 and 2.0)", async () => {
      const d = supportRouteDecision();
      const rest = `"question": ${JSON.stringify(d.question)}, "options": ${JSON.stringify(d.options)}`;
      const body = `{"decisions": [{"id": "a", "state": {"n": 2}, ${rest}}, {"id": "b", "state": {"n": 2.0}, ${rest}}]}`;
      const response = await send(h.port, { body });
      assert.equal(response.status, 400);
      assert.deepEqual(
        response.json.problems.map((p: { field: string }) => p.field),
        ["decisions[1].state"],
      );
    });

    it("passes an object state to the engine as the request's own text, key order and floats kept", async () => {
      const d = supportRouteDecision();
      const body = `{"decision": {"id": "t", "state": {"ticket": "x", "2024": 2.0}, "question": ${JSON.stringify(d.question)}, "options": ${JSON.stringify(d.options)}}}`;
      const response = await send(h.port, { body });
      assert.equal(response.status, 200, response.text);
      const state = h.engine.scored.at(-1)?.state as { text?: unknown } | undefined;
      assert.equal(state?.text, '{"ticket": "x", "2024": 2.0}');
    });

    it("rejects reserved chat-control text inside object states, keys included", async () => {
      const decision = {
        ...supportRouteDecision(),
        state: { note: ["fine", "<think>plan</think>"], "<|im_start|>": 1 },
      };
      const response = await send(h.port, { body: { decision } });
      assert.equal(response.status, 400);
      const fields = response.json.problems.map((p: { field: string }) => p.field).sort();
      assert.deepEqual(fields, ["decision.state", "decision.state.note[1]"]);
    });

    it("rejects too many decisions and too few options", async () => {
      const d = supportRouteDecision();
      const decisions = Array.from({ length: 5 }, (_, i) => ({ ...d, id: `d${i}` }));
      const many = await send(h.port, { body: { decisions } });
      assert.equal(many.status, 400);
      assert.equal(many.json.problems[0].field, "decisions");
      const few = await send(h.port, { body: { decision: { ...d, options: d.options.slice(0, 1) } } });
      assert.equal(few.status, 400);
      assert.equal(few.json.problems[0].field, "decision.options");
    });

    it("caps options by the engine's label alphabet", async () => {
      const options = Array.from({ length: 27 }, (_, i) => ({ id: `o${i}`, description: `option ${i}` }));
      const response = await send(h.port, { body: { decision: { ...supportRouteDecision(), options } } });
      assert.equal(response.status, 400);
      assert.equal(response.json.problems[0].field, "decision.options");
      assert.match(response.json.problems[0].message, /at most 26 options/);
    });

    it("rejects shared decisions on different states and repeated ids", async () => {
      const d = supportRouteDecision();
      const response = await send(h.port, {
        body: { decisions: [d, { ...d, state: "another state" }, { ...d }] },
      });
      assert.equal(response.status, 400);
      const problems = response.json.problems.map(
        (p: { field: string; message: string }) => `${p.field}: ${p.message}`,
      );
      assert.ok(
        problems.some((p: string) => p.startsWith("decisions[1].state: must equal decisions[0].state")),
      );
      assert.ok(
        problems.includes(
          'decisions[1].id: duplicate decision id "support-route" (first at decisions[0].id)',
        ),
      );
      assert.ok(
        problems.includes(
          'decisions[2].id: duplicate decision id "support-route" (first at decisions[0].id)',
        ),
      );
    });

    it("rejects a prompt over the token budget, naming the decision", async () => {
      const d = supportRouteDecision();
      const response = await send(h.port, {
        body: { decisions: [d, { ...d, id: "two", question: "q ".repeat(20_000) }] },
      });
      assert.equal(response.status, 400);
      assert.equal(response.json.problems[0].field, "decisions[1]");
      assert.match(response.json.problems[0].message, /over the limit of 4096 tokens per prompt/);
    });

    it("rejects a body of no known format", async () => {
      const response = await send(h.port, { body: { hello: "world" } });
      assert.equal(response.status, 400);
      assert.equal(response.json.problems[0].field, "body");
    });

    it("answers 404 for unknown paths and 405 for wrong methods", async () => {
      assert.equal((await send(h.port, { path: "/nope" })).status, 404);
      const wrong = await send(h.port, { path: "/invocations" });
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.allow, "POST");
    });

    it("keeps a keep-alive connection usable after rejecting a request", async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const rejected = await send(h.port, { agent, body: { decision: { id: 1 } } });
        assert.equal(rejected.status, 400);
        const tooBig = await send(h.port, {
          agent,
          body: { decision: { ...supportRouteDecision(), state: "y".repeat(70_000) } },
        });
        assert.equal(tooBig.status, 413);
        const accepted = await send(h.port, { agent, body: { decision: supportRouteDecision() } });
        assert.equal(accepted.status, 200);
      } finally {
        agent.destroy();
      }
    });
  });

  describe("engine errors, mapped by class", () => {
    it("maps a budget error on an engine question to 400 naming the caller's decision", async () => {
      h.engine.failNext = new TokenBudgetError(["questions", 1], 9000, 4096, "the prompt");
      const d = supportRouteDecision();
      const response = await send(h.port, { body: { decisions: [d, { ...d, id: "two" }] } });
      assert.equal(response.status, 400);
      assert.deepEqual(response.json.problems, [
        { field: "decisions[1]", message: "the prompt needs 9000 tokens, over the limit of 4096" },
      ]);
    });

    it("maps too many options and reserved tokens to 400", async () => {
      h.engine.failNext = new TooManyOptionsError(["questions", 0, "options"], 30, 26);
      const first = await send(h.port, { body: { decision: supportRouteDecision() } });
      assert.equal(first.status, 400);
      assert.equal(first.json.problems[0].field, "decision.options");
      h.engine.failNext = new ReservedTokenError(["state"], "<|im_end|>");
      const second = await send(h.port, { body: { decision: supportRouteDecision() } });
      assert.equal(second.status, 400);
      assert.equal(second.json.problems[0].field, "decision.state");
    });

    it("maps an engine abort to 503, retryable, with Retry-After", async () => {
      h.engine.failNext = new AbortedError();
      const response = await send(h.port, { body: { decision: supportRouteDecision() } });
      assert.equal(response.status, 503);
      assert.equal(response.json.retryable, true);
      assert.equal(response.headers["retry-after"], "1");
    });

    it("maps an unknown failure to a generic 500 and logs its details", async () => {
      h.engine.failNext = new Error("secret internal detail");
      const response = await send(h.port, { body: { decision: supportRouteDecision() } });
      assert.equal(response.status, 500);
      assert.doesNotMatch(response.text, /secret/);
      const logged = h.logger.events("request_failed").at(-1);
      assert.match(safeStringify(logged), /secret internal detail/);
    });

    it("maps a model failure (not a caller's fault) to 500", async () => {
      h.engine.failNext = new ModelLoadError("broken");
      const response = await send(h.port, { body: { decision: supportRouteDecision() } });
      assert.equal(response.status, 500);
    });
  });

  describe("logs", () => {
    it("writes one ready line with the model identity and the limits in force", () => {
      const ready = h.logger.events("ready");
      assert.equal(ready.length, 1);
      const line = ready[0] as unknown as { model: { file: string }; limits: { maxOptions: number } };
      assert.equal(line.model.file, "fake.gguf");
      assert.equal(line.limits.maxOptions, 26);
    });

    it("writes one line per request with method, path, status, duration and tokens", async () => {
      const before = h.logger.events("request").length;
      await send(h.port, { body: { decision: supportRouteDecision() } });
      const lines = h.logger.events("request");
      assert.equal(lines.length, before + 1);
      const line = lines.at(-1);
      assert.equal(line?.method, "POST");
      assert.equal(line?.path, "/invocations");
      assert.equal(line?.status, 200);
      assert.equal(line?.kind, "semif");
      assert.equal(typeof line?.duration_ms, "number");
      assert.ok((line?.input_tokens as number) > 0);
    });
  });
});

describe("DecisionServer with hide-cache-details", () => {
  it("leaves cached_tokens and evaluated_tokens out of every answer, and only those", async () => {
    // They tell a caller whether another caller sent the same state recently (docs/security.md,
    // "The cache oracle"); input_tokens and the rest of the answer stay.
    const hidden = await startFakeServer({ hideCacheDetails: true });
    const shown = await startFakeServer({});
    try {
      const semif = { decisions: [supportRouteDecision()] };
      const systemOne = {
        state: "s",
        questions: { q: { type: "choice", instructions: "i", criteria: ["a", "b"] } },
      };

      const [hiddenSemif, shownSemif, hiddenSystemOne] = await Promise.all([
        send(hidden.port, { body: semif }),
        send(shown.port, { body: semif }),
        send(hidden.port, { body: systemOne }),
      ]);

      assert.equal(hiddenSemif.status, 200, hiddenSemif.text);
      assert.equal(hiddenSystemOne.status, 200, hiddenSystemOne.text);
      assert.doesNotMatch(hiddenSemif.text, /cached_tokens|evaluated_tokens/);
      assert.doesNotMatch(hiddenSystemOne.text, /cached_tokens|evaluated_tokens/);
      const [withDetails] = shownSemif.json.results;
      const [withoutDetails] = hiddenSemif.json.results;
      assert.equal(typeof withDetails.cached_tokens, "number");
      assert.equal(typeof withDetails.evaluated_tokens, "number");
      const { cached_tokens: _cached, evaluated_tokens: _evaluated, ...rest } = withDetails;
      assert.deepEqual(Object.keys(withoutDetails).sort(), Object.keys(rest).sort());
      assert.equal(withoutDetails.input_tokens, withDetails.input_tokens);
    } finally {
      await hidden.close();
      await shown.close();
    }
  });
});

describe("DecisionServer token budgets", () => {
  let h: Harness;
  before(async () => {
    h = await startFakeServer({ maxRequestTokens: 200, maxPromptTokens: 150 });
  });
  after(async () => {
    await h.close();
  });

  it("refuses a shared request over the per-request budget, naming the list", async () => {
    const d = supportRouteDecision();
    const decisions = [0, 1, 2, 3].map((i) => ({ ...d, id: `d${i}` }));
    const response = await send(h.port, { body: { decisions } });
    assert.equal(response.status, 400);
    assert.deepEqual(
      response.json.problems.map((p: { field: string }) => p.field),
      ["decisions"],
    );
    assert.match(response.json.problems[0].message, /over the limit of 200 tokens per request/);
  });

  it("names the System One question whose prompt is over budget", async () => {
    const response = await send(h.port, {
      path: "/v1/systemone",
      body: {
        state: "short",
        questions: {
          fine: { type: "noul", instructions: "Is it fine?" },
          "too long": { type: "noul", instructions: "why ".repeat(200) },
        },
      },
    });
    assert.equal(response.status, 400);
    // The long question is over the per-prompt budget, and so is the request as a whole.
    assert.deepEqual(
      response.json.problems.map((p: { field: string }) => p.field),
      ['questions["too long"]', "questions"],
    );
  });

  it("answers HEAD /ping without a body", async () => {
    const response = await send(h.port, { method: "HEAD", path: "/ping" });
    assert.equal(response.status, 200);
    assert.equal(response.text, "");
  });
});

describe("DecisionServer admission and lifecycle", () => {
  it("answers /ping 503 while the model loads and 200 after", async () => {
    const engine = new FakeEngine();
    let finishLoading!: () => void;
    const loaded = new Promise<void>((resolve) => {
      finishLoading = resolve;
    });
    const server = new DecisionServer({
      settings: testSettings(),
      loadEngine: async () => {
        await loaded;
        return engine;
      },
      logger: new CapturingLogger(),
    });
    const { port } = await server.listen();
    try {
      const loading = server.load();
      const before = await send(port, { path: "/ping" });
      assert.equal(before.status, 503);
      const invocation = await send(port, { body: { decision: supportRouteDecision() } });
      assert.equal(invocation.status, 503);
      assert.equal(invocation.json.retryable, true);
      finishLoading();
      await loading;
      assert.equal((await send(port, { path: "/ping" })).status, 200);
    } finally {
      await server.close();
    }
  });

  it("stays unready and reports why when loading fails", async () => {
    const server = new DecisionServer({
      settings: testSettings(),
      loadEngine: async () => {
        throw new ModelLoadError("no such model");
      },
      logger: new CapturingLogger(),
    });
    const { port } = await server.listen();
    try {
      await assert.rejects(server.load(), /no such model/);
      assert.equal(server.state, "failed");
      assert.equal((await send(port, { path: "/ping" })).status, 503);
    } finally {
      await server.close();
    }
  });

  it("refuses with 503 and Retry-After beyond in-flight plus queue, before reading the body", async () => {
    const h = await startFakeServer(
      { maxInFlight: 1, queueDepth: 1, retryAfterSeconds: 3 },
      { delayMs: 300 },
    );
    try {
      const d = supportRouteDecision();
      const responses = await Promise.all(
        [0, 1, 2, 3].map((i) => send(h.port, { body: { decision: { ...d, id: `r${i}` } } })),
      );
      const statuses = responses.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 200, 503, 503]);
      for (const refused of responses.filter((r) => r.status === 503)) {
        assert.equal(refused.headers["retry-after"], "3");
        assert.equal(refused.json.retryable, true);
        // The same pause in the body: behind SageMaker the caller sees the body, not the headers.
        assert.equal(refused.json.retry_after_seconds, 3);
      }
      assert.equal(h.engine.maxRunning, 1);
    } finally {
      await h.close();
    }
  });

  it("counts refusals at capacity in requests_refused lines instead of one line per refusal", async () => {
    const h = await startFakeServer({ maxInFlight: 1, queueDepth: 0 }, { delayMs: 300 });
    try {
      const d = supportRouteDecision();
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => send(h.port, { body: { decision: { ...d, id: `r${i}` } } })),
      );
      const refused = responses.filter((r) => r.status === 503).length;
      assert.ok(refused >= 10, `refused ${refused}`);
      await h.close();
      const summaries = h.logger.events("requests_refused");
      assert.equal(
        summaries.reduce((total, line) => total + (line.count as number), 0),
        refused,
        "every refusal is counted once",
      );
      assert.ok(summaries.length <= 2, `${summaries.length} lines for ${refused} refusals`);
      assert.equal(h.logger.events("request").filter((line) => line.status === 503).length, 0);
      assert.ok(
        h.logger.events("request").some((line) => line.status === 200),
        "answers are still logged",
      );
    } finally {
      await h.close();
    }
  });

  it("never mixes up results of concurrent requests", async () => {
    const h = await startFakeServer({ maxInFlight: 4, queueDepth: 20 }, { delayMs: 5 });
    try {
      const requests = Array.from({ length: 16 }, (_, i) => ({
        id: `ticket-${i}`,
        state: `Ticket number ${i}: something happened ${i} times.`,
        question: `Question ${i}?`,
        options: [
          { id: `a${i}`, description: `first ${i}` },
          { id: `b${i}`, description: `second ${i}` },
          { id: `c${i}`, description: `third ${i}` },
        ],
      }));
      const responses = await Promise.all(requests.map((decision) => send(h.port, { body: { decision } })));
      const alone = new FakeEngine();
      for (const [i, response] of responses.entries()) {
        const decision = requests[i];
        assert.ok(decision);
        assert.equal(response.status, 200);
        assert.equal(response.json.result.id, decision.id);
        assert.deepEqual(response.json.result.option_ids, [`a${i}`, `b${i}`, `c${i}`]);
        const expected = await alone.scoreBatch({ state: decision.state, questions: [decision] });
        assert.deepEqual(response.json.result.probabilities, expected.results[0]?.probabilities);
      }
      assert.equal(h.engine.maxRunning, 1, "the engine serialises scoring");
    } finally {
      await h.close();
    }
  });

  it("answers 504 when the request deadline passes and aborts the engine's work", async () => {
    const h = await startFakeServer({ requestTimeoutMs: 50 }, { delayMs: 2_000 });
    try {
      const started = performance.now();
      const response = await send(h.port, { body: { decision: supportRouteDecision() } });
      assert.equal(response.status, 504);
      assert.equal(response.json.retryable, true);
      assert.ok(performance.now() - started < 1_500);
      assert.equal(h.engine.aborted, 1);
    } finally {
      await h.close();
    }
  });

  it("aborts the engine's work when the client disconnects", async () => {
    const h = await startFakeServer({}, { delayMs: 5_000 });
    try {
      const controller = new AbortController();
      const pending = send(h.port, { body: { decision: supportRouteDecision() }, signal: controller.signal });
      await waitFor(() => h.engine.running === 1);
      controller.abort();
      await assert.rejects(pending);
      await waitFor(() => h.engine.aborted === 1);
      await waitFor(() => h.logger.events("request").some((line) => line.status === 499));
    } finally {
      await h.close();
    }
  });

  it("logs 499 and nothing worse when the client disconnects halfway through its body", async () => {
    const h = await startFakeServer();
    try {
      const socket = connect(h.port, "127.0.0.1");
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      socket.write(
        'POST /invocations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"decision": ',
      );
      await waitFor(() => h.server.limits !== undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
      socket.destroy();
      await waitFor(() => h.logger.events("request").some((line) => line.status === 499));
      assert.equal(h.logger.events("request_failed").length, 0);
    } finally {
      await h.close();
    }
  });

  it("shuts down gracefully: finishes in-flight work, refuses new connections, disposes the engine", async () => {
    const h = await startFakeServer({}, { delayMs: 300 });
    const inFlight = send(h.port, { body: { decision: supportRouteDecision() } });
    await waitFor(() => h.engine.running === 1);
    const closing = h.close();
    const response = await inFlight;
    assert.equal(response.status, 200);
    await closing;
    assert.equal(h.server.state, "stopped");
    assert.equal(h.engine.disposed, true);
    await assert.rejects(send(h.port, { path: "/ping" }), /ECONNREFUSED/);
    assert.equal(h.logger.events("stopped").length, 1);
  });

  it("aborts in-flight work that outlives the shutdown grace period", async () => {
    const h = await startFakeServer({ shutdownTimeoutMs: 50 }, { delayMs: 5_000 });
    const inFlight = send(h.port, { body: { decision: supportRouteDecision() } });
    await waitFor(() => h.engine.running === 1);
    await h.close();
    const response = await inFlight;
    assert.equal(response.status, 503);
    assert.equal(response.json.retryable, true);
    assert.equal(h.engine.disposed, true);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
