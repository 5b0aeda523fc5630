/** Which job line a message names: a positive decimal integer only. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readJobAttributes } from "../../../core/jobs/index.js";

const attributes = (line: string) => ({
  "decisions.job_id": { stringValue: "job-1" },
  "decisions.job_line": { stringValue: line },
});

describe("readJobAttributes", () => {
  it("reads a positive decimal line number", () => {
    assert.deepEqual(readJobAttributes(attributes("17")), { jobId: "job-1", line: 17 });
  });

  it("takes no line outside the job's numbering (≤ 0, not an integer, not decimal): the message counts for no job", () => {
    for (const line of ["0", "-1", "1.5", "0x10", "1e2", " 3", "03", "", "9007199254740993"])
      assert.equal(readJobAttributes(attributes(line)), undefined, line);
  });
});
