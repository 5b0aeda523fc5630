import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderCoverageErrorCurve } from "../../../evaluation/charts/renderCoverageErrorCurve.js";
import { renderReliabilityDiagram } from "../../../evaluation/charts/renderReliabilityDiagram.js";
import { coverageErrorCurve } from "../../../evaluation/metrics/coverageErrorCurve.js";
import { expectedCalibrationError } from "../../../evaluation/metrics/expectedCalibrationError.js";

const graded = [
  { confidence: 0.95, correct: true },
  { confidence: 0.91, correct: false },
  { confidence: 0.62, correct: true },
  { confidence: 0.35, correct: false },
];

describe("renderReliabilityDiagram", () => {
  it("draws the diagonal and one point per non-empty bin of each series, names escaped", () => {
    const bins = expectedCalibrationError(graded).bins;

    const svg = renderReliabilityDiagram(
      [
        { name: "before <T=1>", colour: "#d62728", bins },
        { name: "after", colour: "#1f77b4", bins },
      ],
      "Reliability & more",
    );

    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, /<\/svg>\n$/);
    assert.equal((svg.match(/<polyline /g) ?? []).length, 3);
    // 2 diagonal ends + 3 non-empty bins per series.
    assert.equal((svg.match(/<circle /g) ?? []).length, 2 + 3 * 2);
    assert.ok(svg.includes("before &lt;T=1&gt;") && svg.includes("Reliability &amp; more"));
  });
});

describe("renderCoverageErrorCurve", () => {
  it("draws coverage and error against the threshold, with the budget and the chosen threshold", () => {
    const svg = renderCoverageErrorCurve(coverageErrorCurve(graded, [0, 0.5, 1]), {
      errorBudget: 0.05,
      threshold: 0.9,
    });

    assert.equal((svg.match(/<polyline /g) ?? []).length, 4);
    assert.ok(svg.includes(">coverage<") && svg.includes(">error rate<"));
    assert.ok(svg.includes("error budget 0.05") && svg.includes("threshold 0.9"));
  });
});
