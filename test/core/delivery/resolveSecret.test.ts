/** A target's secret: a literal as written, an env: variable read, a missing or malformed one refused with what to do. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DeliverySecretError, resolveSecret } from "../../../core/delivery/index.js";

const SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;

describe("resolveSecret", () => {
  it("keeps a literal and reads an env: variable", () => {
    assert.equal(resolveSecret("p/t", SECRET, {}), SECRET);
    assert.equal(resolveSecret("p/t", "env:HOOK_SECRET", { HOOK_SECRET: SECRET }), SECRET);
  });

  it("refuses an unset variable, naming it and what to export", () => {
    assert.throws(
      () => resolveSecret("p/t", "env:HOOK_SECRET", {}),
      (error: unknown) =>
        error instanceof DeliverySecretError &&
        /p\/t/.test(error.message) &&
        /export HOOK_SECRET=whsec_/.test(error.message),
    );
  });

  it("refuses a variable whose value is no whsec_ secret", () => {
    assert.throws(
      () => resolveSecret("p/t", "env:HOOK_SECRET", { HOOK_SECRET: "hunter2" }),
      (error: unknown) =>
        error instanceof DeliverySecretError &&
        /HOOK_SECRET is no Standard Webhooks secret/.test(error.message),
    );
  });
});
