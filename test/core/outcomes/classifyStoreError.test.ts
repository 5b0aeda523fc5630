import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ResourceNotFoundException } from "@aws-sdk/client-dynamodb";
import { ConfigurationError, PermanentError, TransientError } from "../../../core/common/errors.js";
import { classifyStoreError } from "../../../core/outcomes/classifyStoreError.js";
import {
  OutcomeStoreError,
  OutcomesTableConfigurationError,
  TransientOutcomeStoreError,
} from "../../../core/outcomes/errors.js";

describe("classifyStoreError", () => {
  it("treats a missing table as a configuration error: the record goes back, the item is not at fault", () => {
    const error = new ResourceNotFoundException({
      message: "Cannot do operations on a non-existent table",
      $metadata: { httpStatusCode: 400 },
    });

    const classified = classifyStoreError(error, "outcomes-typo");

    assert.ok(classified instanceof OutcomesTableConfigurationError);
    assert.ok(classified instanceof ConfigurationError);
    assert.ok(!(classified instanceof PermanentError) && !(classified instanceof TransientError));
    assert.equal(classified.part, "outcomes-table");
    assert.equal(classified.resource, "outcomes-typo");
    assert.match(classified.message, /outcomes-typo .*ResourceNotFoundException.*non-existent table/);
    assert.match(classified.remedy, /OUTCOMES_TABLE \("outcomes-typo"\).*dynamodb:PutItem/);
    assert.equal(classified.cause, error);
  });

  it("treats access denied and refused credentials as configuration errors too", () => {
    for (const name of ["AccessDeniedException", "UnrecognizedClientException"]) {
      const classified = classifyStoreError(Object.assign(new Error("no"), { name }), "outcomes");
      assert.ok(classified instanceof OutcomesTableConfigurationError, name);
    }
  });

  it("keeps throttling transient and a validation error a store error", () => {
    const throttled = classifyStoreError(
      Object.assign(new Error("slow down"), { name: "ThrottlingException" }),
      "outcomes",
    );
    const invalid = classifyStoreError(
      Object.assign(new Error("too large"), {
        name: "ValidationException",
        $metadata: { httpStatusCode: 400 },
      }),
      "outcomes",
    );

    assert.ok(throttled instanceof TransientOutcomeStoreError);
    assert.ok(invalid instanceof OutcomeStoreError && invalid.errorName === "ValidationException");
  });
});
