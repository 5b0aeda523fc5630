import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceUnavailableError } from "../../../adapter/server/errors.js";
import { retryAfterMsOf } from "../../../core/endpoint/retryAfterMsOf.js";

const headers = (value: string) => ({ $response: { headers: { "retry-after": value } } });

describe("retryAfterMsOf", () => {
  it("reads delay-seconds and an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");

    assert.equal(retryAfterMsOf(headers("7"), now), 7_000);
    assert.equal(retryAfterMsOf(headers("Thu, 01 Jan 2026 00:00:05 GMT"), now), 5_000);
    assert.equal(retryAfterMsOf(headers("Wed, 31 Dec 2025 00:00:00 GMT"), now), 0);
  });

  it("caps it at 15 minutes and ignores what does not read as a time", () => {
    assert.equal(retryAfterMsOf(headers("100000")), 900_000);
    assert.equal(retryAfterMsOf(headers("soon")), undefined);
    assert.equal(retryAfterMsOf({ OriginalMessage: "not json" }), undefined);
    assert.equal(retryAfterMsOf({ OriginalMessage: '{"retry_after_seconds":-1}' }), undefined);
    assert.equal(retryAfterMsOf(undefined), undefined);
  });

  it("reads the adapter's own 503 body, as SageMaker passes it on (OriginalMessage)", () => {
    const body = new ServiceUnavailableError("the server is at capacity; retry the request", 2).toBody();
    assert.equal(retryAfterMsOf({ OriginalMessage: JSON.stringify(body) }), 2_000);
  });
});
