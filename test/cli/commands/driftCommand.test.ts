import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDriftCommand } from "../../../cli/commands/driftCommand.js";
import { UsageError } from "../../../cli/errors.js";

function command() {
  let out = "";
  const drift = createDriftCommand({ stdout: { write: (text: string) => (out += text) }, now: () => 0 });
  return { drift, output: () => out };
}

describe("decisions drift (arguments)", () => {
  it("prints its usage with --help, naming --json's keys", async () => {
    const { drift, output } = command();

    const code = await drift.run(["--help"]);

    assert.equal(code, 0);
    assert.match(output(), /--json prints \{policy, window, baseline, threshold, distance, over_threshold/);
  });

  it("refuses a run without --policy, options out of range and a window that ends before it starts", async () => {
    const { drift } = command();

    await assert.rejects(
      drift.run([]),
      (error: Error) => error instanceof UsageError && /--policy/.test(error.message),
    );
    await assert.rejects(
      drift.run(["--policy", "p", "--threshold", "2", "--window-minutes", "0"]),
      (error: Error) =>
        error instanceof UsageError && /threshold/.test(error.message) && /windowMinutes/.test(error.message),
    );
    await assert.rejects(
      drift.run(["--policy", "p", "--since", "2026-12-03T10:00:00Z", "--until", "2026-12-03T09:00:00Z"]),
      (error: Error) => error instanceof UsageError && /the start before the end/.test(error.message),
    );
    await assert.rejects(
      drift.run(["--policy", "p", "--since", "yesterday"]),
      (error: Error) =>
        error instanceof UsageError && /--since "yesterday" is not an ISO-8601 time/.test(error.message),
    );
  });
});
