import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startCommand, startNextStep, startUsage } from "../../../cli/commands/startCommand.js";
import { UsageError } from "../../../cli/errors.js";

describe("decisions start", () => {
  it("refuses unknown flags and positionals as usage errors, before starting anything", async () => {
    await assert.rejects(startCommand.run(["--nope"]), UsageError);
    await assert.rejects(startCommand.run(["extra"]), UsageError);
    await assert.rejects(startCommand.run(["--kind", "tiny-qwen3"]), UsageError);
  });

  it("refuses a bad port, thread count, log level or timeout naming the flag", async () => {
    await assert.rejects(startCommand.run(["--gateway-port", "70000"]), /--gateway-port must be an integer/);
    await assert.rejects(startCommand.run(["--threads", "0"]), /--threads must be an integer/);
    await assert.rejects(
      startCommand.run(["--function-log-level", "loud"]),
      /--function-log-level must be one of/,
    );
    await assert.rejects(
      startCommand.run(["--timeout-seconds", "-3"]),
      /--timeout-seconds must be an integer/,
    );
    await assert.rejects(startCommand.run(["--batch-lines", "0"]), /--batch-lines must be an integer from 1/);
    await assert.rejects(
      startCommand.run(["--incidents", "11"]),
      /--incidents must be an integer from 1 to 10/,
    );
  });

  it("documents the model, the ports and the loopback binding", () => {
    const usage = startUsage();
    for (const flag of [
      "--model",
      "--dynamodb-port",
      "--sqs-port",
      "--gateway-port",
      "--adapter-port",
      "--events",
      "--batch-lines",
      "--incidents",
    ]) {
      assert.ok(usage.includes(flag), flag);
    }
    assert.match(usage, /DECISIONS_MODEL/);
    assert.match(usage, /random weights/);
    assert.match(usage, /127\.0\.0\.1 only/);
    assert.match(usage, /bulk lane/);
    assert.match(usage, /interactive lane/);
  });

  it("ends with the next step: keep the pipeline running with up and open its review_url", () => {
    const next = startNextStep();
    assert.match(next, /^Next: `node bin\/decisions\.js up > up\.json`/);
    assert.match(next, /review_url/);
    assert.match(next, /--up-info up\.json/);
    assert.ok(next.split("\n").length <= 4, next);
  });
});
