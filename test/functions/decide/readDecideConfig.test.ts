import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../../core/common/ConfigError.js";
import { readDecideConfig } from "../../../functions/decide/readDecideConfig.js";

describe("readDecideConfig", () => {
  it("applies the defaults to a minimal environment", () => {
    const config = readDecideConfig(
      { OUTCOMES_TABLE: "outcomes", ENDPOINT_NAME: "decisions" },
      "/opt/policies",
    );
    assert.deepEqual(config, {
      outcomesTable: "outcomes",
      endpointName: "decisions",
      inferenceComponentName: "",
      policyDir: "/opt/policies",
      deadlineMarginMs: 10_000,
      maxConcurrentGroups: 4,
      maxAttempts: 6,
      retryBaseDelayMs: 100,
      retryMaxDelayMs: 5000,
      unknownPolicyWaitSeconds: 0,
      jobsTable: "",
      lane: "interactive",
      maxReceiveCount: 0,
      stateArchiveBucket: undefined,
      stateArchivePrefix: "review-states/",
      shadowEndpointName: "",
      shadowTimeoutMs: 5000,
      shadowMaxConcurrent: 2,
    });
  });

  it("reads the candidate endpoint and the shadow step's budget and bound", () => {
    const config = readDecideConfig(
      {
        OUTCOMES_TABLE: "outcomes",
        ENDPOINT_NAME: "decisions",
        SHADOW_ENDPOINT_NAME: "decisions-shadow",
        SHADOW_TIMEOUT_MS: "2500",
        SHADOW_MAX_CONCURRENT: "1",
      },
      "/opt/policies",
    );
    assert.equal(config.shadowEndpointName, "decisions-shadow");
    assert.equal(config.shadowTimeoutMs, 2500);
    assert.equal(config.shadowMaxConcurrent, 1);
    assert.throws(
      () => readDecideConfig({ OUTCOMES_TABLE: "o", ENDPOINT_NAME: "d", SHADOW_MAX_CONCURRENT: "0" }, "p"),
      /SHADOW_MAX_CONCURRENT/,
    );
  });

  it("names every missing or invalid variable in one error", () => {
    const error = (() => {
      try {
        readDecideConfig({ ENDPOINT_NAME: " ", MAX_CONCURRENT_GROUPS: "0", DEADLINE_MARGIN_MS: "soon" }, "p");
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems.map((problem) => problem.variable).sort(), [
      "DEADLINE_MARGIN_MS",
      "ENDPOINT_NAME",
      "MAX_CONCURRENT_GROUPS",
      "OUTCOMES_TABLE",
    ]);
    assert.match(error.message, /MAX_CONCURRENT_GROUPS must be an integer from 1 to 64, got 0/);
  });
});
