import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  AbortedError,
  EngineDisposedError,
  GpuUnavailableError,
  InvalidBatchError,
  InvalidDecisionError,
  ReservedTokenError,
  TokenBudgetError,
} from "../../../adapter/engine/errors.js";
import { engineFieldMapFor, translateEnginePath } from "../../../adapter/server/engineFieldMap.js";
import {
  BadRequestError,
  ClientDisconnectedError,
  InternalServerError,
  RequestDeadlineError,
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
    deadline.abort(new RequestDeadlineError(100));
    const mapped = mapEngineError(new AbortedError(), { signal: deadline.signal, retryAfterSeconds: 1 });
    assert.ok(mapped instanceof RequestDeadlineError);
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
    const budget = mapEngineError(new TokenBudgetError(["questions", 3], 10, 5, "the prompt"), context);
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

describe("translateEnginePath", () => {
  it("names engine paths in the caller's wire format", () => {
    const single = engineFieldMapFor({
      kind: "semif",
      shape: "single",
      batch: { state: "s", questions: [] },
    });
    assert.equal(translateEnginePath(["questions", 0, "options", 2], single), "decision.options[2]");
    assert.equal(translateEnginePath(["state", "customer"], single), "decision.state.customer");
    const shared = engineFieldMapFor(SHARED);
    assert.equal(translateEnginePath(["questions", 4], shared), "decisions[4]");
    assert.equal(translateEnginePath(["questions", 4, "temperature"], shared), "decisions[4].temperature");
    assert.equal(translateEnginePath(["questions"], shared), "decisions");
    assert.equal(translateEnginePath(["state"], shared), "decisions[0].state");
    const batch = { state: "s", questions: [{ id: "c", question: "i", options: [] }] };
    const systemOne = engineFieldMapFor(SYSTEM_ONE, batch);
    assert.equal(translateEnginePath(["questions", 0, "options", 1], systemOne), "questions.c");
    assert.equal(translateEnginePath(["questions", 7], systemOne), "questions");
    assert.equal(
      translateEnginePath(["questions", "a b", "criteria"], systemOne),
      'questions["a b"].criteria',
    );
    assert.equal(translateEnginePath(["other"], systemOne), "other");
  });
});

describe("engine problems", () => {
  it("lists every problem of an InvalidBatchError at its caller's field, with the engine's reason", () => {
    const error = new InvalidBatchError([
      new InvalidDecisionError(["questions", 1, "options", 2, "id"], 'duplicate id "a"'),
      new ReservedTokenError(["state"], "<|im_end|>"),
    ]);
    assert.ok(error instanceof InvalidDecisionError);
    assert.deepEqual(error.path, ["questions", 1, "options", 2, "id"]);
    const mapped = mapEngineError(error, { fields: engineFieldMapFor(SHARED), retryAfterSeconds: 1 });
    assert.ok(mapped instanceof BadRequestError);
    assert.deepEqual(mapped.problems, [
      { field: "decisions[1].options[2].id", message: 'duplicate id "a"' },
      { field: "decisions[0].state", message: 'contains the reserved chat-control text "<|im_end|>"' },
    ]);
  });

  it("maps by path, not by message: a reason that looks like another field stays a reason", () => {
    const error = new InvalidDecisionError(["questions", 0], "questions[9]: not this one");
    const mapped = mapEngineError(error, { fields: engineFieldMapFor(SHARED), retryAfterSeconds: 1 });
    assert.ok(mapped instanceof BadRequestError);
    assert.deepEqual(mapped.problems, [{ field: "decisions[0]", message: "questions[9]: not this one" }]);
  });
});
