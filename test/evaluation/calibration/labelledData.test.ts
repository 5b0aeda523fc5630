import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePolicy } from "../../../core/policy/parsePolicy.js";
import { collectForecasts } from "../../../evaluation/calibration/collectForecasts.js";
import { LabelledDataError } from "../../../evaluation/calibration/errors.js";
import { readLabelledDecisions } from "../../../evaluation/calibration/readLabelledDecisions.js";

const POLICY = parsePolicy(
  `name: routing
version: "4"
description: test policy
questions:
  queue:
    type: choice
    instructions: Which queue?
    criteria: {billing: Money, tech: Tech, other: Else}
    threshold: 0.5
    fallback: other
    temperature: 2
  urgent:
    type: noul
    instructions: Is it urgent?
    threshold: 0.7
    fallback: true
`,
  "routing.yaml",
);

const line = (value: unknown): string => JSON.stringify(value);

describe("readLabelledDecisions", () => {
  it("reads the lines, skipping blank ones, and keeps each line's number", () => {
    const text = `${line({ policy: "routing", id: "a", questions: { urgent: { distribution: { true: 0.8, false: 0.2 }, label: true } } })}\n\n${line({ policy: "routing", id: "b", questions: {} })}\n`;

    const lines = readLabelledDecisions(text);

    assert.deepEqual(
      lines.map((entry) => [entry.line, entry.decision.id]),
      [
        [1, "a"],
        [3, "b"],
      ],
    );
  });

  it("reports every bad line at once, with its number and field path", () => {
    const text = [
      "{not json",
      line({ policy: "routing", questions: {} }),
      line({ policy: "routing", id: "c", questions: { q: { distribution: { a: 2 }, label: "a" } } }),
    ].join("\n");

    assert.throws(
      () => readLabelledDecisions(text, "labelled.jsonl"),
      (error: unknown) => {
        assert.ok(error instanceof LabelledDataError);
        assert.deepEqual(
          error.problems.map((problem) => [problem.line, problem.path.join(".")]),
          [
            [1, ""],
            [2, "id"],
            [3, "questions.q.distribution.a"],
          ],
        );
        assert.match(error.message, /labelled\.jsonl:2 id:/);
        return true;
      },
    );
  });
});

describe("collectForecasts", () => {
  it("orders distributions by the policy's labels and undoes the temperature the policy applied", () => {
    const lines = readLabelledDecisions(
      [
        line({
          policy: "routing",
          id: "a",
          policy_version: "4",
          questions: { queue: { distribution: { tech: 0.2, billing: 0.6, other: 0.2 }, label: "billing" } },
        }),
        line({
          policy: "routing",
          id: "b",
          questions: { urgent: { distribution: { true: 0.8, false: 0.2 }, label: false, temperature: 1 } },
        }),
        line({ policy: "other-policy", id: "c", questions: {} }),
      ].join("\n"),
    );

    const collected = collectForecasts(POLICY, lines);
    const [queue] = collected.questions.get("queue") ?? [];
    const [urgent] = collected.questions.get("urgent") ?? [];

    assert.equal(collected.other_policy_lines, 1);
    assert.deepEqual(queue?.recorded.labels, ["billing", "tech", "other"]);
    assert.equal(queue?.applied_temperature, 2, "the file's temperature, same version");
    // Undone: p^2 renormalised: 0.36 : 0.04 : 0.04.
    const raw = queue?.raw.probabilities ?? [];
    assert.ok(Math.abs((raw[0] ?? 0) - 0.36 / 0.44) < 1e-12);
    assert.deepEqual(urgent?.recorded.labels, ["true", "false"]);
    assert.equal(urgent?.recorded.expected, "false");
    assert.deepEqual(urgent?.raw.probabilities, [0.8, 0.2]);
  });

  it("spreads the mass of labels a truncated distribution lacks evenly over them", () => {
    const lines = readLabelledDecisions(
      line({
        policy: "routing",
        id: "a",
        questions: { queue: { distribution: { billing: 0.9 }, label: "tech", temperature: 1 } },
      }),
    );

    const [forecast] = collectForecasts(POLICY, lines).questions.get("queue") ?? [];

    const probabilities = forecast?.recorded.probabilities ?? [];
    assert.ok(
      Math.abs((probabilities[1] ?? 0) - 0.05) < 1e-12 && Math.abs((probabilities[2] ?? 0) - 0.05) < 1e-12,
    );
  });

  it("refuses unknown questions and labels, and a distribution whose temperature is unknown", () => {
    const lines = readLabelledDecisions(
      [
        line({ policy: "routing", id: "a", questions: { nope: { distribution: { x: 1 }, label: "x" } } }),
        line({
          policy: "routing",
          id: "b",
          questions: { queue: { distribution: { billing: 0.5, sales: 0.5 }, label: "billing" } },
        }),
        line({
          policy: "routing",
          id: "c",
          questions: { queue: { distribution: { billing: 1, tech: 0, other: 0 }, label: "sales" } },
        }),
        line({
          policy: "routing",
          id: "d",
          policy_version: "3",
          questions: { queue: { distribution: { billing: 1, tech: 0, other: 0 }, label: "billing" } },
        }),
      ].join("\n"),
    );

    assert.throws(
      () => collectForecasts(POLICY, lines),
      (error: unknown) => {
        assert.ok(error instanceof LabelledDataError);
        assert.deepEqual(
          error.problems.map((problem) => [problem.line, problem.path.at(-1)]),
          [
            [1, "nope"],
            [2, "distribution"],
            [3, "label"],
            [4, "temperature"],
          ],
        );
        return true;
      },
    );
  });
});
