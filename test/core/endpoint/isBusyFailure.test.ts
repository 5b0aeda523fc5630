import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DeadlineExceededError, PermanentError, RetriesExhaustedError } from "../../../core/common/errors.js";
import { EndpointBusyError, TransientEndpointError } from "../../../core/endpoint/errors.js";
import { isBusyFailure } from "../../../core/endpoint/isBusyFailure.js";

const endpoint = (errorName: string, extra: object = {}) =>
  new TransientEndpointError({ endpointName: "decisions", errorName, ...extra });

describe("isBusyFailure", () => {
  it("counts capacity answers after the retries, no permit before the deadline, and work never started as busy", () => {
    const at503 = endpoint("ModelError", { httpStatus: 424, originalStatusCode: 503 });

    assert.equal(isBusyFailure(new RetriesExhaustedError(3, "budget", { cause: at503 })), true);
    assert.equal(
      isBusyFailure(new RetriesExhaustedError(6, "attempts", { cause: endpoint("ThrottlingException") })),
      true,
    );
    assert.equal(
      isBusyFailure(new RetriesExhaustedError(1, "deadline", { cause: new EndpointBusyError("decisions") })),
      true,
    );
    assert.equal(isBusyFailure(new DeadlineExceededError("2 item(s) of ticket-routing")), true);
  });

  it("counts real failures as failures: a 500, a reset, DynamoDB, a permanent refusal, an unknown error", () => {
    const at500 = endpoint("ModelError", { httpStatus: 424, originalStatusCode: 500 });

    assert.equal(isBusyFailure(new RetriesExhaustedError(6, "attempts", { cause: at500 })), false);
    assert.equal(
      isBusyFailure(new RetriesExhaustedError(6, "attempts", { cause: endpoint("ECONNRESET") })),
      false,
    );
    assert.equal(
      isBusyFailure(new RetriesExhaustedError(6, "attempts", { cause: new Error("ResourceNotFound") })),
      false,
    );
    assert.equal(isBusyFailure(new PermanentError("the model refused")), false);
    assert.equal(isBusyFailure(new Error("?")), false);
    assert.equal(isBusyFailure(undefined), false);
  });
});
