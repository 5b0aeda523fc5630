import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  readAnswers,
  readFormat,
  readLimit,
  readOrder,
  readPositive,
  readStatus,
  readTime,
  readWait,
  selectorOf,
} from "../../../../cli/commands/outcomes/flagReaders.js";
import { UsageError } from "../../../../cli/errors.js";

/** Asserts that `read` refuses its input with a usage error whose message is exactly `message`. */
function refuses(read: () => unknown, message: string): void {
  assert.throws(read, (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.message, message);
    assert.match(error.usage ?? "", /decisions outcomes list/);
    return true;
  });
}

describe("the flag readers of decisions outcomes", () => {
  it("reads an ISO-8601 time as toISOString, and refuses a missing or malformed one naming the flag", () => {
    assert.equal(readTime("2026-12-03T10:00:00+01:00", "--since"), "2026-12-03T09:00:00.000Z");

    refuses(() => readTime(undefined, "--since"), "--since is required");
    refuses(
      () => readTime("yesterday", "--until"),
      '--until "yesterday" is not an ISO-8601 time: give a date (2026-12-03) or a date and time with its zone (2026-12-03T10:00:00Z)',
    );
    refuses(
      () => readTime("+275760-09-13T00:00:00.000Z", "--since"),
      '--since "+275760-09-13T00:00:00.000Z" is outside the times taken, from 1970-01-01 to 9999-12-31 (UTC): give a year of four digits',
    );
  });

  it("reads --wait as whole seconds from 1 to 3600", () => {
    assert.equal(readWait("1"), 1);
    assert.equal(readWait("3600"), 3600);

    for (const text of ["0", "3601", "1.5", "-1", "", "ten"])
      refuses(() => readWait(text), `--wait must be whole seconds from 1 to 3600, got "${text}"`);
  });

  it("reads --set answers by question, the answer everything after the first =", () => {
    assert.deepEqual(readAnswers(["route=billing", "note=a=b", "empty="]), {
      route: "billing",
      note: "a=b",
      empty: "",
    });

    refuses(() => readAnswers([]), "give at least one --set <question>=<answer>");
    refuses(() => readAnswers(["=billing"]), '--set wants <question>=<answer>, got "=billing"');
    refuses(() => readAnswers(["billing"]), '--set wants <question>=<answer>, got "billing"');
    refuses(() => readAnswers(["route=a", "route=b"]), "--set route is given twice");
  });

  it("reads --status as a stored status, undefined when not given", () => {
    assert.equal(readStatus(undefined), undefined);
    assert.equal(readStatus("fallback"), "fallback");

    refuses(
      () => readStatus("pending"),
      '--status must be one of decided, fallback, overridden, rejected, reviewed, got "pending"',
    );
  });

  it("reads --limit from 1 to 10000, 20 when not given", () => {
    assert.equal(readLimit(undefined), 20);
    assert.equal(readLimit("10000"), 10_000);

    for (const text of ["0", "10001", "2.0", "1e3"])
      refuses(() => readLimit(text), `--limit must be an integer from 1 to 10000, got "${text}"`);
  });

  it("reads --order as a review order, newest when not given", () => {
    assert.equal(readOrder(undefined), "newest");
    assert.equal(readOrder("entropy"), "entropy");

    refuses(() => readOrder("oldest"), '--order takes newest, margin, entropy; got "oldest"');
  });

  it("reads a count from 1 to 100000 naming its flag, undefined when not given", () => {
    assert.equal(readPositive("--window", undefined), undefined);
    assert.equal(readPositive("--window", "100000"), 100_000);

    refuses(
      () => readPositive("--window", "100001"),
      '--window must be an integer from 1 to 100000, got "100001"',
    );
    refuses(() => readPositive("--window", "0"), '--window must be an integer from 1 to 100000, got "0"');
  });

  it("reads the export format: jsonl by default, csv, or labelled (JSON Lines only)", () => {
    assert.equal(readFormat(undefined, false), "jsonl");
    assert.equal(readFormat("csv", false), "csv");
    assert.equal(readFormat(undefined, true), "labelled");
    assert.equal(readFormat("jsonl", true), "labelled");

    refuses(() => readFormat("xml", false), '--format must be jsonl or csv, got "xml"');
    refuses(() => readFormat("csv", true), "--labelled writes JSON Lines");
  });

  it("reads a redecide's selector, the model's hash in lower case, none without either flag", () => {
    const sha = "AB".repeat(32);

    assert.equal(selectorOf({}), undefined);
    assert.deepEqual(selectorOf({ "model-sha256": sha }), { modelSha256: sha.toLowerCase() });
    assert.deepEqual(selectorOf({ "model-sha256": sha, "policy-version": "3" }), {
      modelSha256: sha.toLowerCase(),
      policyVersion: "3",
    });
    refuses(() => selectorOf({ "model-sha256": "abc" }), '--model-sha256 must be 64 hex digits, got "abc"');
    refuses(() => selectorOf({ "policy-version": "" }), "--policy-version must not be empty");
  });
});
