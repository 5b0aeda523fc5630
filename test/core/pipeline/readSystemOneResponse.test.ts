import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { InvalidEndpointResponseError } from "../../../core/endpoint/errors.js";
import { readSystemOneResponse } from "../../../core/pipeline/readSystemOneResponse.js";
import { loadPolicies, type Policy } from "../../../core/policy/index.js";

let policy: Policy;
before(async () => {
  const loaded = (await loadPolicies("policies")).get("batch-classification");
  assert.ok(loaded);
  policy = loaded;
});

const answer = (probabilities: Record<string, number>) => ({
  type: "choice",
  choice: Object.keys(probabilities)[0],
  confidence: Object.values(probabilities)[0],
  probabilities,
});

describe("readSystemOneResponse", () => {
  it("returns the validated response and the prompt hashes it carries", () => {
    const hash = "a".repeat(64);
    const body = JSON.stringify({
      model: "tiny",
      answers: { document_type: { ...answer({ invoice: 1 }), prompt_sha256: hash } },
      usage: { input_tokens: 10, output_tokens: 0 },
    });
    const read = readSystemOneResponse(body, policy, "decisions");
    assert.equal(read.response.model, "tiny");
    assert.deepEqual(read.promptSha256, { document_type: hash });
  });

  it("reads the evaluated and cached tokens the adapter adds to System One's usage", () => {
    const usage = { input_tokens: 40, output_tokens: 0, evaluated_tokens: 12, cached_tokens: 28 };
    const body = JSON.stringify({ model: "tiny", answers: { document_type: answer({ invoice: 1 }) }, usage });

    const read = readSystemOneResponse(body, policy, "decisions");

    assert.deepEqual(read.response.usage, usage);
  });

  it("reads a plain System One usage, without the adapter's counts", () => {
    const usage = { input_tokens: 40, output_tokens: 0 };
    const body = JSON.stringify({ model: "tiny", answers: { document_type: answer({ invoice: 1 }) }, usage });

    const read = readSystemOneResponse(body, policy, "decisions");

    assert.deepEqual(read.response.usage, usage);
  });

  it("refuses usage counts that are not whole numbers of tokens", () => {
    const usage = { input_tokens: 40, output_tokens: 0, cached_tokens: -1 };
    const body = JSON.stringify({ model: "tiny", answers: { document_type: answer({ invoice: 1 }) }, usage });

    assert.throws(
      () => readSystemOneResponse(body, policy, "decisions"),
      (error: unknown) =>
        error instanceof InvalidEndpointResponseError && /usage\.cached_tokens/.test(error.message),
    );
  });

  it("refuses a body without an answer to one of the policy's questions", () => {
    const body = JSON.stringify({ model: "tiny", answers: {}, usage: { input_tokens: 1, output_tokens: 0 } });
    assert.throws(() => readSystemOneResponse(body, policy, "decisions"), InvalidEndpointResponseError);
  });

  it("refuses a body that is not JSON", () => {
    assert.throws(() => readSystemOneResponse("<html>", policy, "decisions"), InvalidEndpointResponseError);
  });
});
