import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageError } from "../../cli/errors.js";
import { readContextOverrides } from "../../cli/readContextOverrides.js";

const USAGE = "usage: decisions x [-c knob=value ...]\n";

describe("readContextOverrides", () => {
  it("reads each knob's value, everything after the first =, a later value winning", () => {
    const context = readContextOverrides(
      ["accelerator=gpu", "modelDataUrl=s3://models/q?a=b", "accelerator=cpu", "empty="],
      USAGE,
    );

    assert.deepEqual(context, { accelerator: "cpu", modelDataUrl: "s3://models/q?a=b", empty: "" });
  });

  it("refuses an override with no knob before its =, carrying the usage", () => {
    for (const override of ["accelerator", "=gpu"]) {
      assert.throws(
        () => readContextOverrides(["profile=production", override], USAGE),
        (error) =>
          error instanceof UsageError &&
          error.message === `-c takes knob=value, got "${override}"` &&
          error.usage === USAGE,
      );
    }
  });
});
