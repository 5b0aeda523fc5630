/** `decisions up`'s event-source flags: documented in its usage, checked before anything starts. */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createUpCommand, upUsage } from "../../../cli/commands/upCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { PolicyLoadError } from "../../../core/policy/index.js";

describe("decisions up: the event source's flags", () => {
  it("lists each flag with its default in the usage", () => {
    const usage = upUsage();

    for (const [flag, fallback] of [
      ["function-timeout", "the template's, 120"],
      ["visibility-timeout", "the template's, 721; with --function-timeout 6 × it"],
      ["max-receive-count", "the template's, 5"],
      ["batch-size", "the template's, interactive 1, bulk 10"],
      ["batch-window", "the template's, 1000 both lanes"],
    ]) {
      assert.match(usage, new RegExp(`--${flag} .*\\(default ${fallback}\\)`), flag);
    }
    assert.match(usage, /--function-log-level <level> .*default: up WARN/);
  });

  it("refuses a value out of range, naming the flag, before starting any part", async () => {
    const up = createUpCommand({ stdout: { write: () => true }, stderr: { write: () => true }, env: {} });

    for (const [flag, value] of [
      ["--batch-size", "0"],
      ["--max-receive-count", "many"],
      ["--visibility-timeout", "-1"],
      ["--function-timeout", "901"],
      ["--batch-window", "1.5"],
    ] as const) {
      await assert.rejects(
        up.run([flag, value]),
        (error: unknown) =>
          error instanceof UsageError && error.message.includes(`${flag} must be an integer`),
        flag,
      );
    }
  });

  it("refuses a --policies folder that does not load, naming the file, before starting any part", async () => {
    const up = createUpCommand({ stdout: { write: () => true }, stderr: { write: () => true }, env: {} });
    const dir = await mkdtemp(join(tmpdir(), "up-policies-"));
    try {
      await writeFile(join(dir, "broken.yaml"), "name: broken\n");
      // A java that does not exist: had any part started first, the error would name Java instead.
      await assert.rejects(
        up.run(["--policies", dir, "--java", join(dir, "no-java")]),
        (error: unknown) =>
          error instanceof PolicyLoadError &&
          error.message.includes(join(dir, "broken.yaml")) &&
          error.message.includes('"questions" is missing'),
      );
      await assert.rejects(
        up.run(["--policies", join(dir, "missing"), "--java", join(dir, "no-java")]),
        (error: unknown) => error instanceof PolicyLoadError && error.message.includes("ENOENT"),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
