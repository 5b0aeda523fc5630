import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TABLE_OPTION_FLAGS, TABLE_OPTION_NAMES } from "../../cli/commands/tableOptions.js";
import { UsageError } from "../../cli/errors.js";
import { parseSubCommandArgs } from "../../cli/parseSubCommandArgs.js";

const OPTIONS = {
  ...TABLE_OPTION_FLAGS,
  limit: { type: "string" },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const parse = (args: string[]) =>
  parseSubCommandArgs({
    command: "things",
    args,
    options: OPTIONS,
    subFlags: { list: ["limit"], results: ["out"] },
    sharedFlags: [...TABLE_OPTION_NAMES, "help"],
    allowPositionals: true,
    usage: "usage: things",
  });

describe("parseSubCommandArgs", () => {
  it("gives the sub-command, its flags, the shared table options and the positionals", () => {
    const parsed = parse([
      "results",
      "job-1",
      "--out",
      "r.jsonl",
      "--table",
      "jobs",
      "--region",
      "eu-west-1",
    ]);

    assert.ok(!parsed.help);
    assert.equal(parsed.sub, "results");
    assert.deepEqual(parsed.positionals, ["job-1"]);
    assert.deepEqual({ ...parsed.values }, { out: "r.jsonl", table: "jobs", region: "eu-west-1" });
  });

  it("takes help as the sub-command or as a flag", () => {
    for (const args of [["help"], ["--help"], ["-h"], ["list", "--help"], ["list", "-h"]])
      assert.deepEqual(parse(args), { help: true }, args.join(" "));
  });

  it("refuses a missing or unknown sub-command, and a flag of another sub-command, naming it", () => {
    assert.throws(
      () => parse([]),
      (error: unknown) => error instanceof UsageError && /a sub-command is needed/.test(error.message),
    );
    assert.throws(
      () => parse(["toString"]),
      (error: unknown) => error instanceof UsageError && /unknown sub-command "toString"/.test(error.message),
    );
    assert.throws(
      () => parse(["list", "--out", "x"]),
      (error: unknown) =>
        error instanceof UsageError && error.message === '--out is not an option of "things list"',
    );
  });
});
