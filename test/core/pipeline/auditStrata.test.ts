/**
 * Stratified audits (`audit_strata`): the rate of an item's confidence bin decides, by the same
 * hash draw as `audit_rate`; every audited outcome records that rate (its probability of being
 * audited), and `calibrate`'s estimate of automated accuracy, weighting each label 1/rate, stays
 * unbiased on a generated population whose truth is known.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Outcome } from "../../../core/outcomes/index.js";
import { auditConfidence, auditDraw, auditOf, markAudit } from "../../../core/pipeline/index.js";
import { PolicyLoadError, parsePolicy } from "../../../core/policy/index.js";
import { collectForecasts } from "../../../evaluation/calibration/collectForecasts.js";
import { estimateAutomatedAccuracy } from "../../../evaluation/calibration/estimateAutomatedAccuracy.js";
import { readLabelledDecisions } from "../../../evaluation/calibration/readLabelledDecisions.js";
import { seededRandom } from "../../evaluation/syntheticForecasts.js";

const STRATA = `audit_strata:
  - {below: 0.95, rate: 0.5}
  - {below: 0.98, rate: 0.1}
  - {rate: 0.02}
`;

function policyWith(audit: string) {
  return parsePolicy(
    `name: strata
version: "1"
description: stratified audits
${audit}questions:
  pick:
    type: choice
    instructions: Which?
    criteria: [a, b]
    threshold: 0.9
    fallback: b
`,
    "strata.yaml",
  );
}

const policy = policyWith(STRATA);

/** A decided outcome whose one model answer has probability `confidence`. */
function decided(id: string, confidence: number): Outcome {
  return {
    policy: "strata",
    id,
    policy_status: "strata#decided",
    status: "decided",
    answers: {
      pick: {
        answer: "a",
        probability: confidence,
        distribution: { a: confidence, b: 1 - confidence },
        threshold: 0.9,
        source: "model",
      },
    },
    rules_fired: [],
    source: { kind: "file", line: 1 },
    created_at: "2026-12-03T00:00:00.000Z",
    updated_at: "2026-12-03T00:00:00.000Z",
  };
}

describe("audit_strata in a policy file", () => {
  it("loads rising bounds with a last stratum that takes the rest", () => {
    assert.deepEqual(policy.auditStrata, [
      { below: 0.95, rate: 0.5 },
      { below: 0.98, rate: 0.1 },
      { rate: 0.02 },
    ]);
  });

  it("refuses bounds that do not rise, a last stratum with below, and audit_rate beside strata", () => {
    const refused = (audit: string, path: RegExp) =>
      assert.throws(
        () => policyWith(audit),
        (error: unknown) => error instanceof PolicyLoadError && path.test(error.message),
      );
    refused(
      "audit_strata:\n  - {below: 0.9, rate: 0.5}\n  - {below: 0.8, rate: 0.1}\n  - {rate: 0.02}\n",
      /audit_strata/,
    );
    refused("audit_strata:\n  - {below: 0.9, rate: 0.5}\n", /audit_strata/);
    refused(`audit_rate: 0.1\n${STRATA}`, /not both/);
  });
});

describe("stratified audit sampling", () => {
  it("picks the stratum by the lowest model probability and records its rate, bound and the confidence", () => {
    const ids = Array.from({ length: 400 }, (_, i) => `s-${i}`);
    const low = ids.map((id) => auditOf(policy, id, 0.93)).find((mark) => mark !== undefined);
    const high = ids.map((id) => auditOf(policy, id, 0.99)).find((mark) => mark !== undefined);
    assert.deepEqual(low?.stratum, { index: 0, below: 0.95, confidence: 0.93 });
    assert.equal(low?.rate, 0.5);
    assert.deepEqual(high?.stratum, { index: 2, confidence: 0.99 });
    assert.equal(high?.rate, 0.02);
    assert.equal(auditConfidence(decided("x", 0.97).answers), 0.97);
    assert.equal(auditConfidence({}), 1, "no model answer: the last stratum");
  });

  it("is deterministic: the same item is audited on every delivery, by the same hash draw as audit_rate", () => {
    for (let i = 0; i < 200; i += 1) {
      const outcome = decided(`d-${i}`, 0.96);
      const first = markAudit(outcome, policy);
      const again = markAudit(outcome, policy);
      assert.deepEqual(first, again);
      assert.equal(first.audit !== undefined, auditDraw("strata", `d-${i}`) < 0.1);
      if (first.audit !== undefined) assert.equal(first.policy_status, "strata#audit");
    }
  });

  it("audits each stratum at its rate on 30000 ids (within 4 standard errors)", () => {
    for (const [confidence, rate] of [
      [0.92, 0.5],
      [0.96, 0.1],
      [0.995, 0.02],
    ] as const) {
      const n = 30_000;
      let picked = 0;
      for (let i = 0; i < n; i += 1) if (auditOf(policy, `r-${confidence}-${i}`, confidence)) picked += 1;
      const sd = Math.sqrt(n * rate * (1 - rate));
      assert.ok(Math.abs(picked - n * rate) < 4 * sd, `${picked} of ${n} at rate ${rate}`);
    }
  });

  it("weighted 1/rate through the labelled export and calibrate's reading, estimates the automated error without bias", () => {
    // Prepare: 40000 decided items, confidence uniform over [0.9, 1), each right with
    // probability equal to its confidence (a calibrated model); the truth is known for all.
    const random = seededRandom(33);
    const population = Array.from({ length: 40_000 }, (_, i) => {
      const confidence = 0.9 + 0.1 * random();
      return { id: `p-${i}`, confidence, correct: random() < confidence };
    });
    const trueError = population.filter((item) => !item.correct).length / population.length;

    // Act: the pipeline's audit mark, then one labelled line per audited item as the export writes it.
    const lines: string[] = [];
    let uniformLines = 0;
    for (const item of population) {
      const outcome = markAudit(decided(item.id, item.confidence), policy);
      if (outcome.audit === undefined) continue;
      if (auditDraw("strata", item.id) < 0.05) uniformLines += 1;
      lines.push(
        JSON.stringify({
          policy: "strata",
          id: item.id,
          policy_version: "1",
          audit: { rate: outcome.audit.rate },
          questions: {
            pick: {
              distribution: { a: item.confidence, b: 1 - item.confidence },
              label: item.correct ? "a" : "b",
              model_answer: "a",
            },
          },
        }),
      );
    }
    const forecasts = collectForecasts(
      policy,
      readLabelledDecisions(lines.join("\n"), "strata.jsonl"),
    ).questions.get("pick");
    const estimate = estimateAutomatedAccuracy(forecasts ?? []);

    // Assert: within 4 design standard errors of the truth. The design's variance of the
    // (Hájek) weighted mean under Poisson sampling: Σ (1 − π)/π · (y − p)² / N².
    assert.ok(estimate !== undefined);
    const variance =
      population.reduce((sum, item) => {
        const rate = item.confidence < 0.95 ? 0.5 : item.confidence < 0.98 ? 0.1 : 0.02;
        const y = item.correct ? 0 : 1;
        return sum + ((1 - rate) / rate) * (y - trueError) ** 2;
      }, 0) /
      population.length ** 2;
    const error = 1 - estimate.accuracy;
    assert.ok(
      Math.abs(error - trueError) < 4 * Math.sqrt(variance),
      `estimated ${error.toFixed(4)} vs true ${trueError.toFixed(4)} (sd ${Math.sqrt(variance).toFixed(4)})`,
    );
    // The unweighted share of errors among the audited items is biased towards the unsure strata.
    const unweighted = 1 - estimate.agreed / estimate.audited;
    assert.ok(
      unweighted - trueError > 4 * Math.sqrt(variance),
      `unweighted ${unweighted.toFixed(4)} is biased`,
    );
    assert.ok(lines.length > uniformLines, "the strata audit more than a 5 % uniform rate would");
  });
});
