import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MODEL_KINDS } from "../../../adapter/models/modelKinds.js";
import { startCommand, startUsage } from "../../../cli/commands/startCommand.js";
import { DEFAULT_START_KIND } from "../../../cli/constants.js";
import { UsageError } from "../../../cli/errors.js";

describe("decisions start", () => {
  it("refuses an unknown kind, given either way, before generating anything", async () => {
    await assert.rejects(startCommand.run(["--kind", "tiny-gpt"]), UsageError);
    await assert.rejects(startCommand.run(["--kind=tiny-gpt"]), /--kind must be one of/);
  });

  it("refuses unknown flags, positionals and --model as usage errors", async () => {
    await assert.rejects(startCommand.run(["--nope"]), UsageError);
    await assert.rejects(startCommand.run(["extra"]), UsageError);
    await assert.rejects(startCommand.run(["--model", "/m.gguf"]), UsageError);
  });

  it("documents its kinds, its default and the serve options", () => {
    const usage = startUsage();

    for (const kind of MODEL_KINDS) assert.ok(usage.includes(kind), kind);
    assert.ok(usage.includes(`default ${DEFAULT_START_KIND}`));
    assert.match(usage, /--max-in-flight/);
  });
});
