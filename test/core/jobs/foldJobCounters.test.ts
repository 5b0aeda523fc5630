import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { emptyJobCounterCounts, type JobCounter } from "../../../contract/jobs/JobCounterSchema.js";
import { emptyJobCounts, type Job } from "../../../contract/jobs/JobSchema.js";
import { foldJobCounters } from "../../../core/jobs/foldJobCounters.js";

const record: Job = {
  job_id: "job-1",
  source: "s3://b/k.jsonl",
  bucket: "b",
  key: "k.jsonl",
  status: "deciding",
  counts: { ...emptyJobCounts(), lines: 10, sent: 10 },
  created_at: "2026-12-03T10:00:00.000Z",
  updated_at: "2026-12-03T10:01:00.000Z",
};

function counter(
  line: number,
  updatedAt: string,
  change: (counts: JobCounter["counts"]) => void,
): JobCounter {
  const counts = emptyJobCounterCounts();
  change(counts);
  return { job_id: "job-1", line, counts, updated_at: updatedAt };
}

describe("foldJobCounters", () => {
  it("sums the counters, takes lines from the record, derives sent and takes the latest change", () => {
    // prepare
    const counters = [
      counter(-1, "2026-12-03T10:05:00.000Z", (counts) => {
        counts.ended = 4;
        counts.outcomes.decided = 3;
        counts.outcomes.rejected = 1;
        counts.rejected_at_ingest = 1;
      }),
      counter(-2, "2026-12-03T10:07:00.000Z", (counts) => {
        counts.ended = 3;
        counts.outcomes.decided = 2;
        counts.dead_lettered = 1;
        counts.duplicates = 2;
      }),
    ];

    // act
    const job = foldJobCounters(record, counters);

    // assert
    assert.deepEqual(job.counts, {
      lines: 10,
      sent: 9,
      rejected_at_ingest: 1,
      outcomes: { decided: 5, fallback: 0, overridden: 0, rejected: 1 },
      dead_lettered: 1,
      ended: 7,
      duplicates: 2,
    });
    assert.equal(job.updated_at, "2026-12-03T10:07:00.000Z");
    assert.equal(job.status, "deciding");
  });

  it("ignores the record's own counts when counters exist (a copy written at the final status)", () => {
    const copied: Job = {
      ...record,
      counts: { ...record.counts, ended: 10, outcomes: { ...record.counts.outcomes, decided: 10 } },
    };

    const job = foldJobCounters(copied, [
      counter(-1, record.updated_at, (counts) => {
        counts.ended = 2;
        counts.outcomes.decided = 2;
      }),
    ]);

    assert.equal(job.counts.ended, 2);
    assert.equal(job.counts.outcomes.decided, 2);
  });

  it("gives sent 0 while the lines are not known, and keeps the record's updated_at when it is the latest", () => {
    const reading: Job = { ...record, status: "reading", counts: emptyJobCounts() };

    const job = foldJobCounters(reading, [
      counter(-1, "2026-12-03T09:00:00.000Z", (counts) => {
        counts.ended = 1;
        counts.outcomes.decided = 1;
      }),
    ]);

    assert.equal(job.counts.lines, undefined);
    assert.equal(job.counts.sent, 0);
    assert.equal(job.counts.ended, 1);
    assert.equal(job.updated_at, record.updated_at);
  });

  it("returns a record without counters (written before jobs had them) as it is", () => {
    assert.deepEqual(foldJobCounters(record, []), record);
  });
});
