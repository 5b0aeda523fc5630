/** `npm start` end to end: the sample events through the whole local pipeline, then the summary. */
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { type DemoResult, runDemo } from "../../local/runDemo.js";

describe("runDemo (integration)", () => {
  it("ends every sample item decided, rejected or dead-lettered, prints the summary, stops everything", {
    timeout: 600_000,
  }, async () => {
    let stdout = "";
    let stderr = "";
    const errors = new PassThrough();
    errors.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const result: DemoResult = await runDemo({
      stack: { adapterThreads: 2 },
      output: {
        stdout: {
          write: (text: string) => {
            stdout += text;
          },
        },
        stderr: errors,
      },
    });

    assert.equal(result.exitCode, 0, stderr);
    // One outcome per item (duplicates of an id collapse into the first), or a dead letter.
    assert.ok(result.outcomes.length + result.deadLetters.length > 0);
    assert.equal(result.outcomes.length + result.deadLetters.length <= result.sent, true);
    const policies = new Set(result.outcomes.map((outcome) => outcome.policy));
    for (const policy of ["ticket-routing", "incident-priority", "batch-classification"])
      assert.ok(policies.has(policy), policy);
    assert.ok(
      result.outcomes.some((outcome) => outcome.source.kind === "s3"),
      "the batch file went through S3 ingest",
    );
    assert.ok(
      result.outcomes.some((outcome) => outcome.source.kind === "eventbridge"),
      "an EventBridge event was mapped",
    );
    assert.match(stdout, /^Summary: \d+ items sent, \d+ outcomes, \d+ dead-lettered/m);
    assert.match(stdout, /^ticket-routing — \d+ items:/m);
    assert.match(stdout, /^Sent to human review \(status fallback\): \d+/m);
    assert.match(stderr, /weights are random/);
    assert.match(stderr, /local stack stopped/);
  });
});
