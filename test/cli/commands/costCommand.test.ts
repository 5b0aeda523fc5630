import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createCostCommand } from "../../../cli/commands/costCommand.js";
import { UsageError } from "../../../cli/errors.js";

/** Runs `decisions cost` with the given arguments, its output kept. */
async function run(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const command = createCostCommand({
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
  });
  const code = await command.run(args);
  return { code, stdout };
}

/** Asserts that the arguments are refused before any table is read, with a message matching `message`. */
async function refuses(args: string[], message: RegExp): Promise<void> {
  await assert.rejects(run(args), (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, message);
    assert.match(error.usage ?? "", /decisions cost --policy/);
    return true;
  });
}

describe("decisions cost (arguments)", () => {
  it("prints its usage with --help, naming the JSON keys", async () => {
    const { code, stdout } = await run(["--help"]);
    assert.equal(code, 0);
    for (const key of ["decisions", "tokens_per_decision", "endpoint_seconds_per_decision", "usd_per_1000"])
      assert.match(stdout, new RegExp(key));
  });

  it("needs exactly one of --policy and --job", async () => {
    await refuses(["--instance-price", "1"], /either --policy or --job/);
    await refuses(["--policy", "p", "--job", "j", "--instance-price", "1"], /either --policy or --job/);
    await refuses(["--policy", "", "--instance-price", "1"], /--policy must not be empty/);
  });

  it("needs an instance price in US dollars per hour, a decimal number from 0 to 10000", async () => {
    await refuses(["--policy", "p"], /--instance-price is required/);
    for (const bad of ["", "abc", "-1", "Infinity", "1.2.3", "1e308", "0x10"])
      await refuses(
        ["--policy", "p", "--instance-price", bad],
        /--instance-price must be a decimal number from 0 to 10000 \(US dollars per instance hour\)/,
      );
  });

  it("takes --since with --policy only, as an ISO-8601 time", async () => {
    await refuses(
      ["--job", "j", "--since", "2026-12-01", "--instance-price", "1"],
      /--since selects a policy/,
    );
    await refuses(
      ["--policy", "p", "--since", "yesterday", "--instance-price", "1"],
      /--since "yesterday" is not an ISO-8601 time/,
    );
  });

  it("refuses the jobs table without --job, flags it does not know, and positionals", async () => {
    await refuses(
      ["--policy", "p", "--jobs-table", "jobs", "--instance-price", "1"],
      /--jobs-table is read with --job/,
    );
    await refuses(["--policy", "p", "--instance-price", "1", "--status", "decided"], /status/);
    await refuses(["job-1", "--instance-price", "1"], /positional/i);
  });
});
