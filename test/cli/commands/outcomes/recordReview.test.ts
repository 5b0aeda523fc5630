import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describePolicyChange } from "../../../../cli/commands/outcomes/recordReview.js";

describe("describePolicyChange (outcomes review's note)", () => {
  const outcome = { policy: "ticket-routing", id: "T-1", policy_version: 3, policy_sha256: "a".repeat(64) };

  it("says the content differs, not the version, when both are the same version", () => {
    const note = describePolicyChange(outcome, {
      file: "/p/ticket-routing.yaml",
      version: "3",
      sha256: "b".repeat(64),
    });
    assert.match(
      note,
      /both are version 3, but their content differs \(sha256 aaaaaaaaaaaa… decided, bbbbbbbbbbbb… in \/p\/ticket-routing\.yaml\)/,
    );
    assert.match(note, /give --policies <dir> with the file it was decided under/);
    assert.doesNotMatch(note, /another version/);
  });

  it("names both versions when they differ", () => {
    const note = describePolicyChange(outcome, {
      file: "/p/ticket-routing.yaml",
      version: "4",
      sha256: "b".repeat(64),
    });
    assert.match(
      note,
      /it was decided under version 3 \(sha256 aaaaaaaaaaaa…\), \/p\/ticket-routing\.yaml is version 4/,
    );
  });
});
