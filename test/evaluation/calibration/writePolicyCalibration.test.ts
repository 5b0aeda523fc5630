import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { parsePolicy } from "../../../core/policy/parsePolicy.js";
import { PolicyWriteError } from "../../../evaluation/calibration/errors.js";
import { writePolicyCalibration } from "../../../evaluation/calibration/writePolicyCalibration.js";

const POLICIES = fileURLToPath(new URL("../../../policies/", import.meta.url));

/** The shipped file's text, read only: the edits below work on a copy in memory. */
async function shipped(name: string): Promise<string> {
  return readFile(`${POLICIES}${name}.yaml`, "utf8");
}

describe("writePolicyCalibration", () => {
  it("writes temperatures and thresholds, bumps the version and keeps every comment and other line", async () => {
    const text = await shipped("incident-priority");
    const before = parsePolicy(text, "incident-priority.yaml");

    const edit = writePolicyCalibration(text, {
      severity: { temperature: 1.874, threshold: 0.6123 },
      owning_team: { temperature: 0.8 },
    });
    const after = parsePolicy(edit.text, "incident-priority.yaml");

    assert.equal(edit.previous_version, before.version);
    assert.equal(after.version, String(Number(before.version) + 1));
    assert.match(edit.text, /^version: "\d+"$/m, "the version stays a quoted string");
    assert.equal(after.question("severity")?.temperature, 1.874);
    assert.equal(after.question("severity")?.threshold, 0.6123);
    assert.equal(after.question("owning_team")?.temperature, 0.8);
    assert.equal(after.question("owning_team")?.threshold, before.question("owning_team")?.threshold);
    assert.equal(
      after.question("customer_impact")?.temperature,
      before.question("customer_impact")?.temperature,
    );
    const comments = (source: string) => source.split("\n").filter((line) => line.trim().startsWith("#"));
    assert.deepEqual(comments(edit.text), comments(text));
    // Every other line is kept byte for byte (folded descriptions are not re-wrapped).
    const changed = new Set(["version", "threshold", "temperature"]);
    const unchanged = (source: string) =>
      source.split("\n").filter((line) => !changed.has(line.trim().split(":")[0] ?? ""));
    assert.deepEqual(unchanged(edit.text), unchanged(text));
    // The new temperature follows its question's threshold, at its indentation.
    assert.match(edit.text, /\n {4}threshold: 0\.5\n {4}temperature: 0\.8\n {4}fallback: platform\n/);
  });

  it("keeps a value's trailing comment when it replaces the value", () => {
    const text =
      'name: p\nversion: "7"\nquestions:\n  q:\n    type: noul\n    instructions: Is it?\n    threshold: 0.5 # tuned by hand\n    fallback: false\n';

    const edit = writePolicyCalibration(text, { q: { threshold: 0.9, temperature: 2 } });

    assert.equal(
      edit.text,
      'name: p\nversion: "8"\nquestions:\n  q:\n    type: noul\n    instructions: Is it?\n    threshold: 0.9 # tuned by hand\n    temperature: 2\n    fallback: false\n',
    );
    assert.equal(edit.version, "8");
  });

  it("ends the last line before appending a key to a file without a final newline", () => {
    const text = "version: '1'\nquestions:\n  q:\n    type: noul\n    threshold: 0.5";

    const edit = writePolicyCalibration(text, { q: { temperature: 1.5 } });

    assert.equal(
      edit.text,
      "version: '2'\nquestions:\n  q:\n    type: noul\n    threshold: 0.5\n    temperature: 1.5\n",
    );
  });

  it("refuses a question that is not a block mapping of the file, naming its path", () => {
    const text = 'version: "1"\nquestions:\n  q: {type: noul, threshold: 0.5}\n';

    assert.throws(
      () => writePolicyCalibration(text, { q: { temperature: 2 } }),
      (error: unknown) => error instanceof PolicyWriteError && error.path.join(".") === "questions.q",
    );
    assert.throws(() => writePolicyCalibration(text, { missing: { temperature: 2 } }), PolicyWriteError);
  });
});
