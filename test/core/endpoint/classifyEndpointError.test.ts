import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ModelError,
  ModelNotReadyException,
  ServiceUnavailable,
  ValidationError,
} from "@aws-sdk/client-sagemaker-runtime";
import {
  ConfigurationError,
  PermanentError,
  RetriesExhaustedError,
  TransientError,
} from "../../../core/common/errors.js";
import { classifyEndpointError } from "../../../core/endpoint/classifyEndpointError.js";
import {
  EndpointConfigurationError,
  PermanentEndpointError,
  TransientEndpointError,
} from "../../../core/endpoint/errors.js";
import { isBusyFailure } from "../../../core/endpoint/isBusyFailure.js";

const meta = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });

function modelError(originalStatusCode: number | undefined): ModelError {
  return new ModelError({
    message: "Received server error from primary",
    ...meta(424),
    ...(originalStatusCode !== undefined ? { OriginalStatusCode: originalStatusCode } : {}),
    OriginalMessage: '{"error":"busy","retryable":true}',
  });
}

function throttling(): Error {
  return Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException", ...meta(429) });
}

function networkError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });
}

/** SageMaker's own timeout of an invocation (the container did not answer within 60 s). */
function sageMakerTimeout(): ModelError {
  const text =
    "Your invocation timed out while waiting for a response from container primary. Review the latency metrics for each container in Amazon CloudWatch, resolve the issue, and try again.";
  return new ModelError({
    message: `Received server error (0) from primary with message "${text}".`,
    ...meta(424),
    OriginalStatusCode: 0,
    OriginalMessage: text,
  });
}

describe("SageMaker's invocation timeout", () => {
  it("is transient and busy: re-queued, never a failure that moves the record toward the DLQ", () => {
    const classified = classifyEndpointError(sageMakerTimeout(), "decisions");

    assert.ok(classified instanceof TransientEndpointError);
    assert.equal(classified.atCapacity, true);
    assert.equal(classified.failure.invocationTimedOut, true);
    assert.equal(isBusyFailure(new RetriesExhaustedError(1, "deadline", { cause: classified })), true);
  });

  it("is not confused with another status-0 ModelError, which stays a failure", () => {
    const reset = new ModelError({
      message: 'Received server error (0) from primary with message "connection reset".',
      ...meta(424),
      OriginalStatusCode: 0,
      OriginalMessage: "connection reset",
    });
    const classified = classifyEndpointError(reset, "decisions");

    assert.ok(classified instanceof TransientEndpointError);
    assert.equal(classified.atCapacity, false);
    assert.equal(isBusyFailure(classified), false);
  });
});

describe("classifyEndpointError", () => {
  const transient: [string, unknown][] = [
    ["the model's 503 (busy)", modelError(503)],
    ["the model's 504 (deadline)", modelError(504)],
    ["the model's 500", modelError(500)],
    ["a ModelError without a status", modelError(undefined)],
    ["throttling", throttling()],
    ["SageMaker's ServiceUnavailable", new ServiceUnavailable({ message: "down", ...meta(503) })],
    ["ModelNotReadyException", new ModelNotReadyException({ message: "loading", ...meta(429) })],
    ["an unnamed SageMaker 502", Object.assign(new Error("bad gateway"), { name: "Unknown", ...meta(502) })],
    ["a reset connection", networkError("ECONNRESET")],
    ["a refused connection", networkError("ECONNREFUSED")],
    ["a timeout", Object.assign(new Error("timed out"), { name: "TimeoutError" })],
    ["an aborted request", Object.assign(new Error("aborted"), { name: "AbortError" })],
    ["a reset under a wrapper", new Error("socket hang up", { cause: networkError("ECONNRESET") })],
    ["the model's 408 (request timeout)", modelError(408)],
    ["the model's 429 (too many requests)", modelError(429)],
  ];
  for (const [what, error] of transient) {
    it(`treats ${what} as transient`, () => {
      const classified = classifyEndpointError(error, "decisions");
      assert.ok(classified instanceof TransientEndpointError);
      assert.ok(classified instanceof TransientError);
      assert.equal(classified.cause, error);
      assert.equal(classified.failure.endpointName, "decisions");
    });
  }

  const permanent: [string, unknown][] = [
    ["the model's 400 (invalid request)", modelError(400)],
    ["the model's 413 (body too large)", modelError(413)],
  ];
  for (const [what, error] of permanent) {
    it(`treats ${what} as permanent`, () => {
      const classified = classifyEndpointError(error, "decisions");
      assert.ok(classified instanceof PermanentEndpointError);
      assert.ok(classified instanceof PermanentError);
    });
  }

  const configuration: [string, unknown][] = [
    [
      "SageMaker's ValidationError for an endpoint that does not exist",
      new ValidationError({
        message: "Endpoint decisions-typo of account 123456789012 not found.",
        ...meta(400),
      }),
    ],
    [
      "AccessDeniedException (the role may not invoke the endpoint)",
      Object.assign(new Error("not authorized to perform: sagemaker:InvokeEndpoint"), {
        name: "AccessDeniedException",
        ...meta(403),
      }),
    ],
    [
      "bad credentials without a status",
      Object.assign(new Error("The security token included in the request is invalid."), {
        name: "UnrecognizedClientException",
      }),
    ],
    ["an unnamed SageMaker 404", Object.assign(new Error("not found"), { name: "Unknown", ...meta(404) })],
  ];
  for (const [what, error] of configuration) {
    it(`treats ${what} as the configuration's fault, never the item's`, () => {
      const classified = classifyEndpointError(error, "decisions-typo");

      assert.ok(classified instanceof EndpointConfigurationError);
      assert.ok(!(classified instanceof PermanentError), "a configuration error must not reject the item");
      assert.ok(!(classified instanceof TransientError), "retrying within the invocation cannot fix it");
      assert.match(classified.message, /ENDPOINT_NAME/);
      assert.match(classified.message, /decisions-typo/);
      assert.equal(classified.cause, error);
    });
  }

  it("keeps SageMaker's own message, which names what is wrong, in a configuration error's reason", () => {
    const classified = classifyEndpointError(
      new ValidationError({
        message: "Endpoint decisions-typo of account 123456789012 not found.",
        ...meta(400),
      }),
      "decisions-typo",
    );

    assert.ok(classified instanceof EndpointConfigurationError);
    assert.ok(classified instanceof ConfigurationError);
    assert.match(
      classified.message,
      /ValidationError \(HTTP 400\): Endpoint decisions-typo of account 123456789012 not found\./,
    );
    assert.equal(classified.part, "endpoint");
    assert.equal(classified.resource, "decisions-typo");
    assert.match(classified.remedy, /ENDPOINT_NAME \("decisions-typo"\).*sagemaker:InvokeEndpoint/);
  });

  it("treats an inference component with no copy yet as busy: transient, at capacity, never the configuration's fault", () => {
    // prepare: SageMaker's answer while a component scaled to zero starts its first copy
    const error = new ValidationError({
      message:
        "Inference Component has no capacity to process this request. ApplicationAutoScaling may be in-progress (if configured) or try to increase the capacity by invoking UpdateInferenceComponentRuntimeConfig API.",
      ...meta(400),
    });

    // act
    const classified = classifyEndpointError(error, "decisions");

    // assert
    assert.ok(classified instanceof TransientEndpointError);
    assert.equal(classified.atCapacity, true);
    assert.equal(classified.failure.noCapacity, true);
    assert.equal(isBusyFailure(new RetriesExhaustedError(6, "attempts", { cause: classified })), true);
  });

  it("keeps the model's status and message as data", () => {
    const classified = classifyEndpointError(modelError(400), "decisions");
    assert.deepEqual(classified.failure, {
      endpointName: "decisions",
      errorName: "ModelError",
      httpStatus: 424,
      originalStatusCode: 400,
      originalMessage: '{"error":"busy","retryable":true}',
    });
    assert.match(classified.message, /model status 400/);
  });

  const capacity: [string, unknown, boolean][] = [
    ["the model's 503 (at capacity)", modelError(503), true],
    ["the model's 429", modelError(429), true],
    ["throttling", throttling(), true],
    ["ModelNotReadyException (429)", new ModelNotReadyException({ message: "loading", ...meta(429) }), true],
    ["the model's 500", modelError(500), false],
    ["the model's 504 (deadline)", modelError(504), false],
    [
      "SageMaker's ServiceUnavailable (container unreachable)",
      new ServiceUnavailable({ message: "down", ...meta(503) }),
      false,
    ],
    ["a reset connection", networkError("ECONNRESET"), false],
  ];
  for (const [what, error, atCapacity] of capacity) {
    it(`${atCapacity ? "marks" : "does not mark"} ${what} as at capacity`, () => {
      const classified = classifyEndpointError(error, "decisions");
      assert.ok(classified instanceof TransientEndpointError);
      assert.equal(classified.atCapacity, atCapacity);
    });
  }

  it("reads a Retry-After from the answer's header, or from the container's JSON body", () => {
    const withHeader = Object.assign(throttling(), { $response: { headers: { "retry-after": "3" } } });
    const withBody = new ModelError({
      message: "busy",
      ...meta(424),
      OriginalStatusCode: 503,
      OriginalMessage: '{"error":"at capacity","retryable":true,"retry_after_seconds":2}',
    });

    assert.equal(classifyEndpointError(withHeader, "decisions").failure.retryAfterMs, 3_000);
    const fromBody = classifyEndpointError(withBody, "decisions");
    assert.ok(fromBody instanceof TransientEndpointError);
    assert.equal(fromBody.retryAfterMs, 2_000);
    assert.equal(classifyEndpointError(modelError(503), "decisions").failure.retryAfterMs, undefined);
  });
});
