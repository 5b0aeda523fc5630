/** `decisions up --shadow-model`: documented in its usage, a missing file refused before anything starts. */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createUpCommand, upUsage } from "../../../cli/commands/upCommand.js";
import { UsageError } from "../../../cli/errors.js";

describe("decisions up: --shadow-model", () => {
  it("lists the flag and the JSON keys it adds in the usage", () => {
    const usage = upUsage();

    assert.match(usage, /--shadow-model <file\.gguf> /);
    assert.match(usage, /--shadow-timeout <ms> .*SHADOW_TIMEOUT_MS/);
    for (const key of ["shadow_adapter_url", "shadow_endpoint_name", "shadow_model", "shadow_model_sha256"])
      assert.ok(usage.includes(key), key);
  });

  it("refuses a file that does not exist or a folder, naming the flag, before starting any part", async () => {
    const up = createUpCommand({ stdout: { write: () => true }, stderr: { write: () => true }, env: {} });
    const dir = await mkdtemp(join(tmpdir(), "up-shadow-model-"));
    try {
      // A java that does not exist: had any part started first, the error would name Java instead.
      for (const [path, why] of [
        [join(dir, "missing.gguf"), "no such file"],
        [dir, "not a file"],
      ] as const) {
        await assert.rejects(
          up.run(["--shadow-model", path, "--java", join(dir, "no-java")]),
          (error: unknown) =>
            error instanceof UsageError &&
            error.message.includes(`--shadow-model ${path}: ${why}`) &&
            error.message.includes("GGUF"),
          path,
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a --shadow-timeout out of SHADOW_TIMEOUT_MS's range, naming the flag", async () => {
    const up = createUpCommand({ stdout: { write: () => true }, stderr: { write: () => true }, env: {} });

    for (const value of ["99", "120001", "5s", "1.5"]) {
      await assert.rejects(
        up.run(["--shadow-timeout", value, "--java", "no-java-here"]),
        (error: unknown) =>
          error instanceof UsageError &&
          error.message.includes(`--shadow-timeout must be an integer from 100 to 120000, got "${value}"`),
        value,
      );
    }
  });
});
