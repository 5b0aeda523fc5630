import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type ClassifyPlan, planClassify } from "../../../../cli/commands/classify/planClassify.js";
import { classifyUsage } from "../../../../cli/commands/classify/usage.js";
import { createClassifyCommand } from "../../../../cli/commands/classifyCommand.js";
import { UsageError } from "../../../../cli/errors.js";

const ITEMS = join("in", "items.jsonl");
const BASE = [ITEMS, "--policy", "ticket-routing"];

/** The UsageError `planClassify(args)` throws. */
function usageErrorOf(args: string[]): UsageError {
  let thrown: unknown;
  try {
    planClassify(args);
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof UsageError, `planClassify(${args.join(" ")}) throws a UsageError`);
  return thrown;
}

function classifyPlan(args: string[]): Extract<ClassifyPlan, { mode: "classify" }> {
  const plan = planClassify(args);
  assert.equal(plan.mode, "classify");
  return plan as Extract<ClassifyPlan, { mode: "classify" }>;
}

describe("planClassify", () => {
  it("plans the help for --help and -h, whatever else is given", () => {
    for (const args of [["--help"], ["-h"], ["a", "b", "--threads", "0", "-h"]]) {
      assert.deepStrictEqual(planClassify(args), { mode: "help" } satisfies ClassifyPlan, args.join(" "));
    }
  });

  it("plans the outcomes, results and manifest beside the input, with the defaults, when only --policy is given", () => {
    const plan = planClassify(BASE);

    assert.deepStrictEqual(plan, {
      mode: "classify",
      input: ITEMS,
      policyName: "ticket-routing",
      model: undefined,
      out: join("in", "items.outcomes.jsonl"),
      results: join("in", "items.results.jsonl"),
      manifest: join("in", "items.manifest.json"),
      policyDir: undefined,
      threads: undefined,
      contextSize: 8192,
    } satisfies ClassifyPlan);
  });

  it("maps every flag as given", () => {
    const plan = planClassify([
      ...BASE,
      "--model",
      "m.gguf",
      "--out",
      "o.jsonl",
      "--results",
      "r.results.jsonl",
      "--policies",
      "policy-dir",
      "--threads",
      "4",
      "--context-size",
      "2048",
    ]);

    assert.deepStrictEqual(plan, {
      mode: "classify",
      input: ITEMS,
      policyName: "ticket-routing",
      model: "m.gguf",
      out: "o.jsonl",
      results: "r.results.jsonl",
      manifest: "r.manifest.json",
      policyDir: "policy-dir",
      threads: 4,
      contextSize: 2048,
    } satisfies ClassifyPlan);
  });

  it("names the files after the input without .jsonl or .json (any case), and the manifest after --results", () => {
    const outOf = (input: string) => classifyPlan([input, "--policy", "p"]).out;
    const manifestOf = (results: string) =>
      classifyPlan([ITEMS, "--policy", "p", "--results", results]).manifest;

    assert.deepStrictEqual(["a.json", "a.JSONL", "a.txt", "a"].map(outOf), [
      "a.outcomes.jsonl",
      "a.outcomes.jsonl",
      "a.txt.outcomes.jsonl",
      "a.outcomes.jsonl",
    ]);
    assert.deepStrictEqual(["r.jsonl", "r.results.JSON", "r.csv"].map(manifestOf), [
      "r.manifest.json",
      "r.manifest.json",
      "r.csv.manifest.json",
    ]);
  });

  it("reads --threads and --context-size as whole numbers of digits", () => {
    const plan = classifyPlan([...BASE, "--threads", "08", "--context-size", "1"]);

    assert.equal(plan.threads, 8);
    assert.equal(plan.contextSize, 1);
  });

  it("refuses bad arguments with the command's messages, each carrying the usage", () => {
    const refused: [args: string[], message: string | RegExp][] = [
      [[...BASE, "--bogus"], /^Unknown option '--bogus'/],
      [[ITEMS, "--policy"], "Option '--policy <value>' argument missing"],
      [["--policy", "p"], "exactly one items file is needed"],
      [[ITEMS, ITEMS, "--policy", "p"], "exactly one items file is needed"],
      [[ITEMS], "--policy is required"],
      [[ITEMS, "--policy", ""], "--policy is required"],
      [[...BASE, "--threads", "0"], '--threads must be a positive integer, got "0"'],
      [[...BASE, "--threads", "1.5"], '--threads must be a positive integer, got "1.5"'],
      [[...BASE, "--threads", "-2"], '--threads must be a positive integer, got "-2"'],
      [[...BASE, "--context-size", "x"], '--context-size must be a positive integer, got "x"'],
      [[...BASE, "--results", ITEMS], "--results must name a file other than the input and --out"],
      [
        [...BASE, "--out", "o.jsonl", "--results", "o.jsonl"],
        "--results must name a file other than the input and --out",
      ],
      [
        [...BASE, "--out", "x.manifest.json", "--results", "x.results.jsonl"],
        "--results must name a file other than the input and --out",
      ],
      [
        ["x.manifest.json", "--policy", "p", "--results", "x.results.jsonl"],
        "--results must name a file other than the input and --out",
      ],
    ];
    for (const [args, message] of refused) {
      const error = usageErrorOf(args);

      if (typeof message === "string") assert.equal(error.message, message, args.join(" "));
      else assert.match(error.message, message, args.join(" "));
      assert.equal(error.usage, classifyUsage(), `usage of ${args.join(" ")}`);
    }
  });

  it("checks the flags in the command's order: the first bad one is named", () => {
    const error = usageErrorOf([...BASE, "--context-size", "x", "--threads", "0", "--results", ITEMS]);

    assert.equal(error.message, '--threads must be a positive integer, got "0"');
  });
});

describe("decisions classify --help", () => {
  it("prints the usage on stdout and exits 0", async () => {
    let stdout = "";
    const command = createClassifyCommand({
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => assert.fail("nothing is written to stderr") },
    });

    const code = await command.run(["-h"]);

    assert.equal(code, 0);
    assert.equal(stdout, classifyUsage());
    assert.match(stdout, /^usage: decisions classify <items\.jsonl> --policy <name>/);
  });
});
