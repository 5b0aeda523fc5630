import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { answerSystemOne } from "../../../adapter/engine/systemOne/SystemOne.js";
import { applyTemperature } from "../../../core/policy/applyTemperature.js";
import { parsePolicy } from "../../../core/policy/parsePolicy.js";
import { LabelledDataError } from "../../../evaluation/calibration/errors.js";
import type { LabelledLine } from "../../../evaluation/calibration/readLabelledDecisions.js";
import { scoreLabelledDecisions } from "../../../evaluation/calibration/scoreLabelledDecisions.js";
import { FakeEngine } from "../../support/FakeEngine.js";

const SHIPPED = fileURLToPath(new URL("../../../policies/ticket-routing.yaml", import.meta.url));
const policy = parsePolicy(await readFile(SHIPPED, "utf8"), SHIPPED);

/** A labelled line of ticket-routing: `queue` labelled, with a recorded distribution the scoring must replace. */
function labelledLine(line: number, state: string | undefined, policyName = "ticket-routing"): LabelledLine {
  return {
    line,
    decision: {
      policy: policyName,
      id: `T-${line}`,
      ...(state === undefined ? {} : { state }),
      questions: {
        queue: { distribution: { billing: 1 }, label: "technical_support", temperature: 2 },
        needs_human: { distribution: { true: 1, false: 0 }, label: false },
      },
    },
  };
}

const layoutsAsked = (engine: FakeEngine): (string | undefined)[][] =>
  engine.scored.map((batch) => batch.questions.map((question) => question.layout));

describe("scoreLabelledDecisions", () => {
  it("asks all of the policy's questions of each state in the layout given, direct-options-v1 when none is", async () => {
    const lines = [labelledLine(1, "I was charged twice"), labelledLine(2, "The app crashes")];
    const asked = new FakeEngine();
    const byDefault = new FakeEngine();

    const { scoring } = await scoreLabelledDecisions(asked, policy, lines, { layout: "question-first-v1" });
    const defaulted = await scoreLabelledDecisions(byDefault, policy, lines);

    const all = (layout: string) => policy.questions.map(() => layout);
    assert.deepEqual(layoutsAsked(asked), [all("question-first-v1"), all("question-first-v1")]);
    assert.deepEqual(layoutsAsked(byDefault), [all("direct-options-v1"), all("direct-options-v1")]);
    assert.equal(scoring.layout, "question-first-v1");
    assert.equal(defaulted.scoring.layout, "direct-options-v1");
    assert.deepEqual(Object.keys(scoring.prompt_versions), ["queue", "priority", "needs_human"]);
    // What the engine answered with (this fake always answers direct-options-v1), counted per question.
    assert.deepEqual(scoring.prompt_versions.queue, { "direct-options-v1": 2 });
    assert.deepEqual([scoring.lines, scoring.failed], [2, []]);
  });

  it("replaces each labelled distribution by the engine's with the policy's temperature, keeping the label", async () => {
    const engine = new FakeEngine();
    const lines = [labelledLine(1, "I was charged twice")];

    const scored = await scoreLabelledDecisions(engine, policy, lines);

    const queue = policy.question("queue");
    assert.ok(queue?.type === "choice" && queue.temperature !== undefined);
    const direct = await answerSystemOne(new FakeEngine(), {
      state: "I was charged twice",
      questions: { queue: { ...policy.systemOneQuestions().queue, layout: "direct-options-v1" } },
    } as Parameters<typeof answerSystemOne>[1]);
    const answer = direct.answers.queue;
    assert.ok(answer?.type === "choice");
    const expected = applyTemperature(
      queue.labels.map((label) => answer.probabilities[label] ?? 0),
      queue.temperature,
    );
    const [line] = scored.lines;
    const rescored = line?.decision.questions.queue;
    assert.equal(rescored?.label, "technical_support");
    assert.equal(rescored?.temperature, queue.temperature);
    assert.deepEqual(Object.keys(rescored?.distribution ?? {}), queue.labels);
    for (const [k, label] of queue.labels.entries()) {
      assert.ok(Math.abs((rescored?.distribution[label] ?? -1) - (expected[k] ?? 0)) < 1e-12, label);
    }
    const needsHuman = line?.decision.questions.needs_human;
    assert.deepEqual(Object.keys(needsHuman?.distribution ?? {}), ["true", "false"]);
    assert.notDeepEqual(needsHuman?.distribution, { true: 1, false: 0 });
  });

  it("keeps other policies' lines as they are and leaves out a line the engine fails on", async () => {
    const engine = new FakeEngine();
    engine.failNext = new Error("prompt too long");
    const other = labelledLine(3, undefined, "incident-priority");
    const lines = [labelledLine(1, "first"), other, labelledLine(2, "second")];

    const { lines: scored, scoring } = await scoreLabelledDecisions(engine, policy, lines);

    assert.deepEqual(
      scored.map((entry) => entry.line),
      [3, 2],
    );
    assert.equal(scored[0], other);
    assert.equal(scoring.lines, 2);
    assert.equal(scoring.failed.length, 1);
    assert.deepEqual([scoring.failed[0]?.line, scoring.failed[0]?.id], [1, "T-1"]);
    assert.match(scoring.failed[0]?.error ?? "", /prompt too long/);
  });

  it("refuses, before scoring anything, lines of the policy that carry no state", async () => {
    const engine = new FakeEngine();
    const lines = [labelledLine(1, "has one"), labelledLine(2, undefined), labelledLine(4, undefined)];

    await assert.rejects(scoreLabelledDecisions(engine, policy, lines), (error: unknown) => {
      assert.ok(error instanceof LabelledDataError);
      assert.deepEqual(
        error.problems.map((problem) => [problem.line, problem.path]),
        [
          [2, ["state"]],
          [4, ["state"]],
        ],
      );
      return true;
    });
    assert.equal(engine.scored.length, 0);
  });
});
