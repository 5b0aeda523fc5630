import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  AbortedError,
  EngineDisposedError,
  GpuUnavailableError,
  InvalidDecisionError,
  TokenBudgetError,
} from "../../../adapter/engine/errors.js";
import { engineFieldMapFor, translateEngineField } from "../../../adapter/server/engineFieldMap.js";
import {
  BadRequestError,
  ClientDisconnectedError,
  DeadlineExceededError,
  InternalServerError,
  ServiceUnavailableError,
} from "../../../adapter/server/errors.js";
import { mapEngineError } from "../../../adapter/server/mapEngineError.js";
import type { Invocation } from "../../../adapter/server/types.js";

const SHARED: Invocation = {
  kind: "semif",
  shape: "shared",
  batch: { state: "s", questions: [] },
};
const SYSTEM_ONE: Invocation = {
  kind: "systemone",
  request: {
    state: "s",
    questions: { "a b": { type: "noul", instructions: "i" }, c: { type: "noul", instructions: "i" } },
  },
};

describe("mapEngineError", () => {
  it("answers the abort's reason when the request's own signal aborted", () => {
    const deadline = new AbortController();
    deadline.abort(new DeadlineExceededError(100));
    const mapped = mapEngineError(new AbortedError(), { signal: deadline.signal, retryAfterSeconds: 1 });
    assert.ok(mapped instanceof DeadlineExceededError);
    assert.equal(mapped.status, 504);
    const gone = new AbortController();
    gone.abort(new ClientDisconnectedError());
    assert.ok(
      mapEngineError(new DOMException("x", "AbortError"), {
        signal: gone.signal,
        retryAfterSeconds: 1,
      }) instanceof ClientDisconnectedError,
    );
  });

  it("maps by class: invalid input 400, abort and disposal 503, anything else 500", () => {
    const context = { fields: engineFieldMapFor(SHARED), retryAfterSeconds: 2 };
    const budget = mapEngineError(new TokenBudgetError("questions[3]", 10, 5, "the prompt"), context);
    assert.ok(budget instanceof BadRequestError);
    assert.deepEqual(budget.problems, [
      { field: "decisions[3]", message: "the prompt needs 10 tokens, over the limit of 5" },
    ]);
    const aborted = mapEngineError(new AbortedError(), context);
    assert.ok(aborted instanceof ServiceUnavailableError);
    assert.equal(aborted.headers["Retry-After"], "2");
    assert.ok(mapEngineError(new EngineDisposedError(), context) instanceof ServiceUnavailableError);
    assert.ok(mapEngineError(new GpuUnavailableError("no gpu"), context) instanceof InternalServerError);
    assert.ok(mapEngineError("a thrown string", context) instanceof InternalServerError);
  });

  it("does not decide by message text", () => {
    const lookalike = new Error("questions[0]: the prompt needs 10 tokens, over the limit of 5");
    lookalike.name = "TokenBudgetError";
    assert.ok(mapEngineError(lookalike, { retryAfterSeconds: 1 }) instanceof InternalServerError);
  });
});

describe("translateEngineField", () => {
  it("names engine fields in the caller's wire format", () => {
    const single = engineFieldMapFor({
      kind: "semif",
      shape: "single",
      batch: { state: "s", questions: [] },
    });
    assert.equal(translateEngineField("questions[0].options[2]", single), "decision.options[2]");
    assert.equal(translateEngineField("state.customer", single), "decision.state.customer");
    const shared = engineFieldMapFor(SHARED);
    assert.equal(translateEngineField("questions[4]", shared), "decisions[4]");
    assert.equal(translateEngineField("questions", shared), "decisions");
    const batch = { state: "s", questions: [{ id: "c", question: "i", options: [] }] };
    const systemOne = engineFieldMapFor(SYSTEM_ONE, batch);
    assert.equal(translateEngineField("questions[0].options[1]", systemOne), "questions.c");
    assert.equal(translateEngineField("questions[7]", systemOne), "questions");
    assert.equal(translateEngineField("other", systemOne), "other");
    assert.ok(new InvalidDecisionError("x", "y") instanceof Error);
  });
});
