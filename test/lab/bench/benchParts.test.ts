import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderChart } from "../../../evaluation/charts/renderChart.js";
import { quantile, summarise } from "../../../evaluation/metrics/statistics.js";
import { parseLabel } from "../../../lab/bench/measureStandardPath.js";

describe("parseLabel", () => {
  it("accepts a generated answer that names exactly one offered label", () => {
    assert.equal(parseLabel("B", ["A", "B"]), "B");
    assert.equal(parseLabel(" B.\n", ["A", "B"]), "B");
    assert.equal(parseLabel("AB", ["A", "B", "AB"]), "AB");
  });

  it("rejects labels not offered and answers that are words", () => {
    assert.equal(parseLabel("C", ["A", "B"]), undefined);
    assert.equal(parseLabel("Billing", ["A", "B"]), undefined);
    assert.equal(parseLabel("fangfang", ["A", "B"]), undefined);
    assert.equal(parseLabel("", ["A"]), undefined);
  });
});

describe("statistics", () => {
  it("interpolates quantiles between order statistics", () => {
    assert.equal(quantile([4, 1, 3, 2], 0.5), 2.5);
    assert.equal(quantile([1, 2, 3, 4, 5], 0.95), 4.8);
    assert.ok(Number.isNaN(quantile([], 0.5)));
    assert.deepEqual(summarise([2, 4]), { n: 2, median: 3, mean: 3, min: 2, max: 4, p95: 3.9 });
  });
});

describe("renderChart", () => {
  it("draws one line per series with escaped labels", () => {
    const svg = renderChart(
      [
        {
          name: "cold <ms>",
          colour: "#f00",
          points: [
            { x: 100, y: 50 },
            { x: 400, y: 200 },
          ],
        },
        { name: "cached", colour: "#0f0", points: [{ x: 100, y: 10 }] },
      ],
      { title: "t & u", xLabel: "x", yLabel: "y" },
    );
    assert.equal(svg.match(/<polyline /g)?.length, 2);
    assert.ok(svg.includes("cold &lt;ms&gt;"));
    assert.ok(svg.includes("t &amp; u"));
  });
});
