import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { emptyJobCounts, type Job } from "../../../contract/index.js";
import { tallyJobs } from "../../../functions/jobsMonitor/index.js";

const NOW = Date.parse("2026-12-02T10:00:00.000Z");

function job(id: string, status: Job["status"], minutesQuiet: number, lines?: number, ended = 0): Job {
  const updated = new Date(NOW - minutesQuiet * 60_000).toISOString();
  return {
    job_id: id,
    source: `s3://ingest/incoming/${id}.jsonl`,
    bucket: "ingest",
    key: `incoming/${id}.jsonl`,
    status,
    counts: { ...emptyJobCounts(), ...(lines !== undefined ? { lines } : {}), ended },
    created_at: updated,
    updated_at: updated,
  };
}

describe("tallyJobs", () => {
  it("stalls a job only once it has been unchanged for longer than the stall time", () => {
    const tally = tallyJobs(
      [
        job("at-limit", "deciding", 60, 2, 1),
        job("past-limit", "deciding", 61, 2, 1),
        job("fresh", "reading", 0),
      ],
      NOW,
      60,
    );

    assert.deepEqual(tally, { inProgress: 3, linesPending: 2, stalled: ["past-limit"] });
  });

  it("leaves final jobs out, however old, and counts no pending lines for a job still reading", () => {
    const tally = tallyJobs(
      [job("done", "complete", 600, 5, 5), job("gone", "failed", 600, 5, 2), job("reading", "reading", 5)],
      NOW,
      60,
    );

    assert.deepEqual(tally, { inProgress: 1, linesPending: 0, stalled: [] });
  });
});
