import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../../../../adapter/models/packageRoot.js";
import {
  budgetSimulationOptions,
  type CalibratePlan,
  checkPlanAgainstPolicy,
  planCalibrate,
} from "../../../../cli/commands/calibrate/planCalibrate.js";
import { CALIBRATE_USAGE } from "../../../../cli/commands/calibrate/usage.js";
import { createCalibrateCommand } from "../../../../cli/commands/calibrateCommand.js";
import { UsageError } from "../../../../cli/errors.js";
import { parsePolicy } from "../../../../core/policy/parsePolicy.js";

const SHIPPED = fileURLToPath(new URL("../../../../policies/ticket-routing.yaml", import.meta.url));
const SHIPPED_TEXT = readFileSync(SHIPPED, "utf8");
const POLICY = parsePolicy(SHIPPED_TEXT, SHIPPED);
/** The shipped policy with its first question, queue, asked in question-first-v1. */
const QUEUE_FIRST = parsePolicy(
  SHIPPED_TEXT.replace("    temperature: 1.3\n", "    temperature: 1.3\n    layout: question-first-v1\n"),
  SHIPPED,
);
const BASE = ["labelled.jsonl", "--policy", "p.yaml"];

/** The UsageError `run()` throws. */
function usageErrorOf(run: () => unknown): UsageError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof UsageError, `a UsageError is thrown, got ${String(thrown)}`);
  return thrown;
}

function calibratePlan(args: string[]): Extract<CalibratePlan, { mode: "calibrate" }> {
  const plan = planCalibrate(args);
  assert.equal(plan.mode, "calibrate");
  return plan as Extract<CalibratePlan, { mode: "calibrate" }>;
}

function runnablePlan(args: string[]): Exclude<CalibratePlan, { mode: "help" }> {
  const plan = planCalibrate(args);
  assert.notEqual(plan.mode, "help");
  return plan as Exclude<CalibratePlan, { mode: "help" }>;
}

function simulatePlan(args: string[]): Extract<CalibratePlan, { mode: "simulate" }> {
  const plan = planCalibrate(args);
  assert.equal(plan.mode, "simulate");
  return plan as Extract<CalibratePlan, { mode: "simulate" }>;
}

describe("planCalibrate", () => {
  it("plans the help for --help and -h, whatever else is given", () => {
    for (const args of [["--help"], ["-h"], ["--seed", "x", "--help"], ["a", "b", "-h"]]) {
      assert.deepStrictEqual(planCalibrate(args), { mode: "help" } satisfies CalibratePlan, args.join(" "));
    }
  });

  it("plans a calibration of the recorded answers with every default", () => {
    const plan = planCalibrate(BASE);

    assert.deepStrictEqual(plan, {
      mode: "calibrate",
      labelledPath: "labelled.jsonl",
      policyPath: "p.yaml",
      question: undefined,
      limit: undefined,
      errorBudget: 0.05,
      seed: 0,
      force: false,
      holdout: 0.3,
      bias: false,
      write: false,
      out: undefined,
      model: undefined,
    } satisfies CalibratePlan);
  });

  it("maps every calibration flag, --model with its --layout and --threads", () => {
    const plan = planCalibrate([
      ...BASE,
      "--question",
      "queue",
      "--error-budget",
      "0.1",
      "--bias",
      "--holdout",
      "0.25",
      "--seed",
      "-7",
      "--limit",
      "40",
      "--out",
      "report",
      "--write",
      "--force",
      "--model",
      "m.gguf",
      "--layout",
      "question-first-v1",
      "--threads",
      "3",
    ]);

    assert.deepStrictEqual(plan, {
      mode: "calibrate",
      labelledPath: "labelled.jsonl",
      policyPath: "p.yaml",
      question: "queue",
      limit: 40,
      errorBudget: 0.1,
      seed: -7,
      force: true,
      holdout: 0.25,
      bias: true,
      write: true,
      out: "report",
      model: { path: "m.gguf", layout: "question-first-v1", threads: 3 },
    } satisfies CalibratePlan);
  });

  it("asks --model in the default layout on every core when neither is given", () => {
    const plan = calibratePlan([...BASE, "--model", "m.gguf"]);

    assert.deepStrictEqual(plan.model, { path: "m.gguf", layout: "direct-options-v1", threads: undefined });
  });

  it("reads a policy name as policies/<name>.yaml and keeps a file path as given", () => {
    const named = calibratePlan(["l.jsonl", "--policy", "ticket-routing"]);
    const paths = ["p.yml", "dir/p", "/abs/p.yaml"].map(
      (policy) => calibratePlan(["l.jsonl", "--policy", policy]).policyPath,
    );

    assert.equal(named.policyPath, join(packageRoot(), "policies", "ticket-routing.yaml"));
    assert.deepStrictEqual(paths, ["p.yml", "dir/p", "/abs/p.yaml"]);
  });

  it("plans a simulation with --simulate-budget, keeping --audit-share and --replications as given", () => {
    const bare = planCalibrate([...BASE, "--simulate-budget", "50"]);
    const given = planCalibrate([
      ...BASE,
      "--simulate-budget",
      "80",
      "--audit-share",
      "0.3",
      "--replications",
      "9",
      "--seed",
      "2",
      "--error-budget",
      "0.1",
      "--question",
      "route",
      "--limit",
      "10",
    ]);

    const common = { labelledPath: "labelled.jsonl", policyPath: "p.yaml", force: false };
    assert.deepStrictEqual(bare, {
      mode: "simulate",
      ...common,
      question: undefined,
      limit: undefined,
      errorBudget: 0.05,
      seed: 0,
      budget: 50,
      auditShare: "0.5",
      replications: undefined,
    } satisfies CalibratePlan);
    assert.deepStrictEqual(given, {
      mode: "simulate",
      ...common,
      question: "route",
      limit: 10,
      errorBudget: 0.1,
      seed: 2,
      budget: 80,
      auditShare: "0.3",
      replications: "9",
    } satisfies CalibratePlan);
  });

  it("refuses bad arguments with the command's messages, the usage carried where it always was", () => {
    const refused: [args: string[], message: string | RegExp, usage: boolean][] = [
      [[...BASE, "--bogus"], /^Unknown option '--bogus'/, true],
      [["labelled.jsonl", "--policy"], "Option '--policy <value>' argument missing", true],
      [["--policy", "p.yaml"], "exactly one labelled JSONL file is needed", true],
      [["a.jsonl", "b.jsonl", "--policy", "p.yaml"], "exactly one labelled JSONL file is needed", true],
      [["labelled.jsonl"], "--policy is required", true],
      [[...BASE, "--error-budget", "2"], "--error-budget must be a number between 0 and 1, got 2", false],
      [[...BASE, "--error-budget", "0"], "--error-budget must be a number between 0 and 1, got 0", false],
      [[...BASE, "--holdout", "1"], "--holdout must be a number between 0 and 1, got 1", false],
      [[...BASE, "--holdout", "x"], "--holdout must be a number between 0 and 1, got x", false],
      [[...BASE, "--seed", "1.5"], "--seed must be an integer, got 1.5", false],
      [[...BASE, "--limit", "0"], "--limit must be a positive integer, got 0", true],
      [[...BASE, "--limit", "2.5"], "--limit must be a positive integer, got 2.5", true],
      [[...BASE, "--model", "m", "--threads", "x"], "--threads must be a positive integer, got x", true],
      [
        [...BASE, "--model", "m", "--layout", "nope"],
        "--layout takes direct-options-v1, question-first-v1, auto; got nope",
        true,
      ],
      [
        [...BASE, "--layout", "auto"],
        "--layout needs --model: without it the recorded distributions are calibrated, in the layout each item was decided in",
        true,
      ],
      [
        [...BASE, "--threads", "2"],
        "--threads needs --model: without it the recorded distributions are calibrated, in the layout each item was decided in",
        true,
      ],
      [[...BASE, "--simulate-budget", "0"], "--simulate-budget must be a positive integer, got 0", true],
      [[...BASE, "--audit-share", "0.3"], "--audit-share and --replications need --simulate-budget", true],
      [[...BASE, "--replications", "3"], "--audit-share and --replications need --simulate-budget", true],
      ...["--write", "--bias", "--model=m.gguf"].map((flag): [string[], string, boolean] => [
        [...BASE, "--simulate-budget", "5", flag],
        "--simulate-budget replays the export: leave out --write, --model and --bias",
        true,
      ]),
    ];
    for (const [args, message, usage] of refused) {
      const error = usageErrorOf(() => planCalibrate(args));

      if (typeof message === "string") assert.equal(error.message, message, args.join(" "));
      else assert.match(error.message, message, args.join(" "));
      assert.equal(error.usage, usage ? CALIBRATE_USAGE : undefined, `usage of ${args.join(" ")}`);
    }
  });

  it("checks the flags in the command's order: the first bad one is named", () => {
    const twoBad: [string[], string][] = [
      [["--error-budget", "2", "--holdout", "0"], "--error-budget"],
      [["--seed", "x", "--limit", "0"], "--seed"],
      [["--layout", "nope", "--threads", "2"], "--layout takes"],
      [["--simulate-budget", "0", "--write"], "--simulate-budget must"],
    ];
    for (const [flags, first] of twoBad) {
      const error = usageErrorOf(() => planCalibrate([...BASE, ...flags]));

      assert.ok(error.message.startsWith(first), `${flags.join(" ")}: ${error.message}`);
    }
  });
});

describe("checkPlanAgainstPolicy", () => {
  it("accepts a question of the policy, --force with --write, and --model --write in the policy's layout", () => {
    for (const args of [
      ["--question", "priority"],
      ["--write", "--force"],
      ["--model", "m.gguf", "--write"],
      ["--model", "m.gguf", "--layout", "question-first-v1"],
    ]) {
      assert.doesNotThrow(
        () => checkPlanAgainstPolicy(calibratePlan([...BASE, ...args]), POLICY),
        args.join(" "),
      );
    }
  });

  it("refuses a question the policy does not have, naming its questions, without the usage", () => {
    const error = usageErrorOf(() =>
      checkPlanAgainstPolicy(calibratePlan([...BASE, "--question", "nope", "--force"]), POLICY),
    );

    assert.equal(
      error.message,
      'policy ticket-routing has no question "nope" (queue, priority, needs_human)',
    );
    assert.equal(error.usage, undefined);
  });

  it("refuses --force without --write, in a calibration and in a simulation", () => {
    for (const args of [["--force"], ["--force", "--simulate-budget", "5"]]) {
      const error = usageErrorOf(() => checkPlanAgainstPolicy(runnablePlan([...BASE, ...args]), POLICY));

      assert.equal(error.message, "--force needs --write", args.join(" "));
      assert.equal(error.usage, CALIBRATE_USAGE);
    }
  });

  it("refuses --model --write in a layout the policy does not ask a calibrated question in", () => {
    const other = usageErrorOf(() =>
      checkPlanAgainstPolicy(
        calibratePlan([...BASE, "--model", "m.gguf", "--layout", "question-first-v1", "--write"]),
        POLICY,
      ),
    );
    const asked = usageErrorOf(() =>
      checkPlanAgainstPolicy(calibratePlan([...BASE, "--model", "m.gguf", "--write"]), QUEUE_FIRST),
    );

    assert.equal(
      other.message,
      '--write: policy ticket-routing asks "queue" in layout direct-options-v1; a temperature fitted on question-first-v1 answers does not apply to it (set its layout in the policy, or leave out --write to compare)',
    );
    assert.equal(other.usage, CALIBRATE_USAGE);
    assert.match(asked.message, /^--write: policy ticket-routing asks "queue" in layout question-first-v1; /);
  });

  it("with --question, checks the layout of that question only", () => {
    const only = (question: string) =>
      checkPlanAgainstPolicy(
        calibratePlan([...BASE, "--model", "m.gguf", "--write", "--question", question]),
        QUEUE_FIRST,
      );

    assert.doesNotThrow(() => only("priority"));
    assert.throws(() => only("queue"), UsageError);
  });
});

describe("budgetSimulationOptions", () => {
  it("gives the budget, the seed and the error budget, and the defaults of --audit-share and --replications", () => {
    const options = budgetSimulationOptions(
      simulatePlan([...BASE, "--simulate-budget", "50", "--seed", "4", "--error-budget", "0.2"]),
    );

    assert.deepStrictEqual(options, {
      budget: 50,
      auditShare: 0.5,
      replications: 200,
      seed: 4,
      errorBudget: 0.2,
    });
  });

  it("reads --audit-share and --replications as given", () => {
    const options = budgetSimulationOptions(
      simulatePlan([...BASE, "--simulate-budget", "50", "--audit-share", "0.25", "--replications", "7"]),
    );

    assert.equal(options.auditShare, 0.25);
    assert.equal(options.replications, 7);
  });

  it("refuses an --audit-share outside (0, 1) before a bad --replications", () => {
    const share = usageErrorOf(() =>
      budgetSimulationOptions(
        simulatePlan([...BASE, "--simulate-budget", "5", "--audit-share", "2", "--replications", "0"]),
      ),
    );
    const replications = usageErrorOf(() =>
      budgetSimulationOptions(simulatePlan([...BASE, "--simulate-budget", "5", "--replications", "0"])),
    );

    assert.equal(share.message, "--audit-share must be a number between 0 and 1, got 2");
    assert.equal(share.usage, undefined);
    assert.equal(replications.message, "--replications must be a positive integer, got 0");
    assert.equal(replications.usage, CALIBRATE_USAGE);
  });
});

describe("decisions calibrate --help", () => {
  it("prints the usage on stdout and exits 0", async () => {
    let stdout = "";
    const command = createCalibrateCommand({
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => assert.fail("nothing is written to stderr") },
    });

    const code = await command.run(["--help"]);

    assert.equal(code, 0);
    assert.equal(stdout, CALIBRATE_USAGE);
    assert.match(stdout, /^usage: decisions calibrate <labelled\.jsonl> --policy/);
  });
});
