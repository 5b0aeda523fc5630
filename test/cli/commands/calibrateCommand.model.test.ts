import assert from "node:assert/strict";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { createCalibrateCommand } from "../../../cli/commands/calibrateCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { applyTemperature } from "../../../core/policy/applyTemperature.js";
import { parsePolicy } from "../../../core/policy/parsePolicy.js";
import { isHeldOut } from "../../../evaluation/calibration/splitHeldOut.js";
import { syntheticItems } from "../../evaluation/syntheticForecasts.js";

const SHIPPED = fileURLToPath(new URL("../../../policies/ticket-routing.yaml", import.meta.url));
const QUEUE = [
  "billing",
  "technical_support",
  "account_access",
  "orders_shipping",
  "sales",
  "security",
  "legal",
  "triage",
];

function capture(): { text: () => string; write: (chunk: string) => boolean } {
  let text = "";
  return {
    text: () => text,
    write: (chunk) => {
      text += chunk;
      return true;
    },
  };
}

describe("decisions calibrate", () => {
  let dir: string;
  let policyPath: string;
  let labelledPath: string;
  let shippedText: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "calibrate-"));
    // A copy: the shipped policy is never written.
    policyPath = join(dir, "ticket-routing.yaml");
    await copyFile(SHIPPED, policyPath);
    shippedText = await readFile(SHIPPED, "utf8");
    const policy = parsePolicy(shippedText, SHIPPED);
    const applied = policy.question("queue")?.temperature ?? 1;
    // The model is over-confident by T = 2; outcomes recorded its answers after the policy's temperature.
    const items = syntheticItems({ n: 3000, labels: QUEUE, trueTemperature: 2, seed: 9, scale: 5 });
    const lines = items.map((item) => {
      const recorded = applyTemperature(item.forecast.probabilities, applied);
      return JSON.stringify({
        policy: "ticket-routing",
        id: item.id,
        policy_version: policy.version,
        reviewed_by: "test",
        questions: {
          queue: {
            distribution: Object.fromEntries(QUEUE.map((label, k) => [label, recorded[k]])),
            label: item.forecast.expected,
          },
        },
      });
    });
    labelledPath = join(dir, "labelled.jsonl");
    await writeFile(labelledPath, `${lines.join("\n")}\n`);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("fits the temperature, writes it and the threshold into the policy with a new version, keeping its comments", async () => {
    const stdout = capture();
    const stderr = capture();
    const out = join(dir, "report");

    const code = await createCalibrateCommand({ stdout, stderr }).run([
      labelledPath,
      "--policy",
      policyPath,
      "--out",
      out,
      "--write",
    ]);

    assert.equal(code, 0, stderr.text());
    const written = await readFile(policyPath, "utf8");
    const before = parsePolicy(shippedText, SHIPPED);
    const policy = parsePolicy(written, policyPath);
    const queue = policy.question("queue");
    assert.ok(
      queue?.temperature !== undefined && Math.abs(queue.temperature - 2) <= 0.2,
      `T = ${queue?.temperature}`,
    );
    assert.notEqual(queue.threshold, before.question("queue")?.threshold);
    assert.equal(policy.version, String(Number(before.version) + 1));
    assert.deepEqual(policy.question("priority"), before.question("priority"));
    const comments = (text: string) => text.split("\n").filter((line) => line.trim().startsWith("#"));
    assert.deepEqual(comments(written), comments(shippedText));
    assert.equal(await readFile(SHIPPED, "utf8"), shippedText, "the shipped policy is untouched");
    assert.deepEqual((await readdir(out)).sort(), [
      "calibration.json",
      "calibration.md",
      "queue-coverage.svg",
      "queue-reliability.svg",
    ]);
    const report = JSON.parse(await readFile(join(out, "calibration.json"), "utf8"));
    const [question] = report.questions;
    assert.ok(question.held_out.after.ece < question.held_out.before.ece);
    assert.ok(question.threshold_held_out.error_rate <= 0.05);
    assert.match(stdout.text(), /Written to .*ticket-routing\.yaml as version 4/);
    assert.match(stdout.text(), /\| held out \| accuracy \| Brier \| NLL \| ECE \(10 bins\) \|/);
    assert.equal(report.scoring, undefined, "the recorded distributions, not scored again");
    assert.match(await readFile(join(out, "calibration.md"), "utf8"), /^Distributions as recorded /m);
  });

  describe("scoring the labelled states again on a generated tiny-qwen3 (--model)", () => {
    let model: string;
    let withStates: string;

    before(async () => {
      model = await ensureGeneratedModel("tiny-qwen3");
      const states: unknown[] = [
        "I was charged twice for my subscription this month.",
        { subject: "Cannot log in", body: "The reset link says it expired." },
        "Where is my order?",
      ];
      const lines = states.map((state, index) =>
        JSON.stringify({
          policy: "ticket-routing",
          id: `S-${index}`,
          state,
          questions: {
            queue: { distribution: { billing: 1 }, label: "billing", temperature: 1 },
            needs_human: { distribution: { true: 0.5, false: 0.5 }, label: false, temperature: 1 },
          },
        }),
      );
      withStates = join(dir, "with-states.jsonl");
      await writeFile(withStates, `${lines.join("\n")}\n`);
    });

    const scoringOf = async (out: string) => {
      const report = JSON.parse(await readFile(join(out, "calibration.json"), "utf8"));
      return { scoring: report.scoring, markdown: await readFile(join(out, "calibration.md"), "utf8") };
    };

    it("asks every question in the --layout given and names it and the prompt_version answered in the report", async () => {
      const stderr = capture();
      const out = join(dir, "question-first");

      const code = await createCalibrateCommand({ stdout: capture(), stderr }).run([
        ...[withStates, "--policy", policyPath, "--model", model, "--threads", "2"],
        ...["--limit", "2", "--layout", "question-first-v1", "--out", out],
      ]);

      // Two lines cannot calibrate anything (exit 1), but the report is written.
      assert.equal(code, 1, stderr.text());
      const { scoring, markdown } = await scoringOf(out);
      assert.equal(scoring.layout, "question-first-v1");
      assert.equal(scoring.model_file, basename(model));
      assert.deepEqual([scoring.lines, scoring.failed], [2, []]);
      assert.deepEqual(scoring.prompt_versions, {
        queue: { "question-first-v1": 2 },
        priority: { "question-first-v1": 2 },
        needs_human: { "question-first-v1": 2 },
      });
      assert.match(
        markdown,
        /every question asked in layout question-first-v1: 2\/2 labelled lines answered/,
      );
      assert.match(markdown, /^\| queue \| question-first-v1 × 2 \|$/m);
    });

    it("asks in direct-options-v1 when --layout is not given", async () => {
      const stderr = capture();
      const out = join(dir, "default-layout");

      const code = await createCalibrateCommand({ stdout: capture(), stderr }).run([
        ...[
          withStates,
          "--policy",
          policyPath,
          "--model",
          model,
          "--threads",
          "2",
          "--limit",
          "2",
          "--out",
          out,
        ],
      ]);

      assert.equal(code, 1, stderr.text());
      const { scoring, markdown } = await scoringOf(out);
      assert.equal(scoring.layout, "direct-options-v1");
      assert.deepEqual(scoring.prompt_versions.queue, { "direct-options-v1": 2 });
      assert.match(markdown, /asked in layout direct-options-v1/);
    });
  });

  describe("a threshold that keeps the budget on the fit split but not held out", () => {
    let misleading: string;
    let ownPolicy: string;

    before(async () => {
      // The same confident answer on every line: right on each fit item, wrong on each held-out one.
      const ids = Array.from({ length: 200 }, (_, index) => `H-${index}`);
      const fit = ids.filter((id) => !isHeldOut(id)).slice(0, 40);
      const heldOut = ids.filter((id) => isHeldOut(id)).slice(0, 12);
      const distribution = Object.fromEntries(
        QUEUE.map((label) => [label, label === "billing" ? 0.93 : 0.01]),
      );
      const line = (id: string, label: string) =>
        JSON.stringify({
          policy: "ticket-routing",
          id,
          questions: { queue: { distribution, label, temperature: 1 } },
        });
      misleading = join(dir, "misleading.jsonl");
      await writeFile(
        misleading,
        `${[...fit.map((id) => line(id, "billing")), ...heldOut.map((id) => line(id, "legal"))].join("\n")}\n`,
      );
      ownPolicy = join(dir, "misleading-policy.yaml");
      await copyFile(SHIPPED, ownPolicy);
    });

    it("warns with the held-out error and its bound, and refuses --write, leaving the policy unchanged", async () => {
      const stdout = capture();
      const stderr = capture();

      const code = await createCalibrateCommand({ stdout, stderr }).run([
        ...[misleading, "--policy", ownPolicy, "--error-budget", "0.2", "--out", join(dir, "refused")],
        "--write",
      ]);

      assert.equal(code, 1);
      assert.equal(await readFile(ownPolicy, "utf8"), shippedText);
      assert.match(
        stderr.text(),
        /warning: queue: threshold [\d.]+ errs on 1 \(12 of 12\) of the held-out automated decisions, above the budget 0\.2 \(upper bound 1\)/,
      );
      assert.match(
        stderr.text(),
        /--write refused, .*misleading-policy\.yaml is unchanged: the threshold of queue does not keep the error budget 0\.2 on the held-out split; .*--force/,
      );
      assert.match(stdout.text(), /\*\*Warning\*\* \(exceeded\): threshold/);
      assert.match(stdout.text(), /error upper bound \(Wilson, z = 1\.645\)/);
      const report = JSON.parse(await readFile(join(dir, "refused", "calibration.json"), "utf8"));
      assert.equal(report.questions[0].held_out_budget.verdict, "exceeded");
      assert.equal(report.questions[0].threshold.met, true, "the fit split met the budget");
    });

    it("writes it with --force", async () => {
      const stderr = capture();

      const code = await createCalibrateCommand({ stdout: capture(), stderr }).run([
        ...[misleading, "--policy", ownPolicy, "--error-budget", "0.2", "--out", join(dir, "forced")],
        ...["--write", "--force"],
      ]);

      assert.equal(code, 0, stderr.text());
      assert.match(stderr.text(), /warning: queue: threshold/);
      const policy = parsePolicy(await readFile(ownPolicy, "utf8"), ownPolicy);
      assert.notEqual(
        policy.question("queue")?.threshold,
        parsePolicy(shippedText, SHIPPED).question("queue")?.threshold,
      );
    });
  });

  it("refuses bad arguments as usage errors", async () => {
    const command = createCalibrateCommand({ stdout: capture(), stderr: capture() });

    await assert.rejects(command.run([labelledPath]), UsageError);
    await assert.rejects(command.run(["--policy", policyPath]), UsageError);
    await assert.rejects(
      command.run([labelledPath, "--policy", policyPath, "--error-budget", "2"]),
      UsageError,
    );
    await assert.rejects(
      command.run([labelledPath, "--policy", policyPath, "--question", "nope"]),
      UsageError,
    );
    await assert.rejects(command.run([labelledPath, "--policy", policyPath, "--limit", "0"]), UsageError);
    await assert.rejects(
      command.run([labelledPath, "--policy", policyPath, "--force"]),
      /--force needs --write/,
    );
  });

  it("refuses a --layout the engine does not have, one without --model, and one --write cannot apply", async () => {
    const command = createCalibrateCommand({ stdout: capture(), stderr: capture() });
    // No model is loaded: every refusal comes first, so a missing file as the model shows it.
    const model = join(dir, "no-such-model.gguf");
    const refused = (pattern: RegExp) => (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, pattern);
      return true;
    };

    await assert.rejects(
      command.run([labelledPath, "--policy", policyPath, "--model", model, "--layout", "question-first"]),
      refused(/^--layout takes direct-options-v1, question-first-v1, auto; got question-first$/),
    );
    await assert.rejects(
      command.run([labelledPath, "--policy", policyPath, "--layout", "question-first-v1"]),
      refused(/--layout needs --model/),
    );
    await assert.rejects(
      command.run([
        ...[
          labelledPath,
          "--policy",
          policyPath,
          "--model",
          model,
          "--layout",
          "question-first-v1",
          "--write",
        ],
      ]),
      refused(/asks "queue" in layout direct-options-v1; a temperature fitted on question-first-v1 answers/),
    );
  });
});
