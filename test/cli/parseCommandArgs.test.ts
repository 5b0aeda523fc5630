import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { UsageError } from "../../cli/errors.js";
import { parseCommandArgs } from "../../cli/parseCommandArgs.js";

const OPTIONS = {
  kind: { type: "string" },
  quick: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

describe("parseCommandArgs", () => {
  it("reads --flag=value and --flag value alike, for any value", () => {
    fc.assert(
      fc.property(
        fc.string().filter((value) => !value.startsWith("-")),
        (value) => {
          const joined = parseCommandArgs({ args: [`--kind=${value}`], options: OPTIONS });
          const separate = parseCommandArgs({ args: ["--kind", value], options: OPTIONS });

          assert.equal(joined.values.kind, value);
          assert.equal(separate.values.kind, value);
        },
      ),
    );
  });

  it("takes a negative number after a string flag as its value", () => {
    const { values } = parseCommandArgs({ args: ["--kind", "-1", "--quick"], options: OPTIONS });

    assert.equal(values.kind, "-1");
    assert.equal(values.quick, true);
  });

  it("refuses an unknown flag, a missing value and an unexpected positional, carrying the usage", () => {
    for (const args of [["--size", "2"], ["--kind"], ["extra"], ["--quick=yes"]]) {
      assert.throws(
        () => parseCommandArgs({ args, options: OPTIONS, usage: "usage: x" }),
        (error: unknown) =>
          error instanceof UsageError && error.usage === "usage: x" && error.cause !== undefined,
        args.join(" "),
      );
    }
  });

  it("returns positionals where they are allowed", () => {
    const { positionals, values } = parseCommandArgs({
      args: ["a.gguf", "-h"],
      options: OPTIONS,
      allowPositionals: true,
    });

    assert.deepEqual(positionals, ["a.gguf"]);
    assert.equal(values.help, true);
  });
});
