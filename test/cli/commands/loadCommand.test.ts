/** `decisions load` arguments: checked before anything starts. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createLoadCommand } from "../../../cli/commands/loadCommand.js";
import { UsageError } from "../../../cli/errors.js";

function capture(): { command: ReturnType<typeof createLoadCommand>; stdout: () => string } {
  let out = "";
  const command = createLoadCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: () => true },
  });
  return { command, stdout: () => out };
}

describe("decisions load", () => {
  it("documents the warm-up and its default in --help", async () => {
    const { command, stdout } = capture();

    assert.equal(await command.run(["--help"]), 0);

    assert.match(stdout(), /--warmup S/);
    assert.match(stdout(), /--warmup\s+seconds of the same load before measuring \(default 30; 0 for none\)/);
  });

  it("refuses a warm-up that is not a whole number of seconds", async () => {
    for (const bad of ["-1", "2.5", "soon"]) {
      const { command } = capture();

      await assert.rejects(command.run(["--warmup", bad]), (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, /--warmup must be a whole number of seconds/);
        return true;
      });
    }
  });

  it("refuses an unknown target", async () => {
    const { command } = capture();

    await assert.rejects(
      command.run(["--target", "queue"]),
      /--target must be one of adapter, gateway, both/,
    );
  });
});
