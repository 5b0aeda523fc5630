import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ingestMatchesResults } from "../../../infra/config/ingestMatchesResults.js";

describe("ingestMatchesResults", () => {
  it("finds a results key that an empty prefix or one above results/ would ingest", () => {
    for (const [prefix, suffix] of [
      ["", ".jsonl"],
      ["", ""],
      ["res", "l"],
      ["results/", ".json"],
      ["results/job-0", "manifest.json"],
    ] as const) {
      const key = ingestMatchesResults(prefix, suffix);

      assert.ok(key !== undefined, `${prefix}*${suffix}`);
      assert.ok(key.startsWith(prefix) && key.endsWith(suffix), key);
      assert.match(key, /^results\/job-[0-9a-f]{32}\/(results\.jsonl|manifest\.json)$/);
    }
  });

  it("finds none for a prefix outside results/, a suffix no results file ends with, or a job id that cannot be", () => {
    for (const [prefix, suffix] of [
      ["incoming/", ".jsonl"],
      ["", ".csv"],
      ["results/in/", ".jsonl"],
      ["results/job-G", ""],
      ["results/", "/x/results.jsonl"],
      // longer than any results key together: the wildcard may match nothing, never overlap.
      [`results/job-${"a".repeat(32)}/results.js`, "s.jsonl"],
    ] as const) {
      assert.equal(ingestMatchesResults(prefix, suffix), undefined, `${prefix}*${suffix}`);
    }
  });
});
