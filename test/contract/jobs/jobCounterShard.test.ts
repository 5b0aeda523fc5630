import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  JOB_COUNTER_SHARDS,
  jobCounterLine,
  jobCounterShardOf,
} from "../../../contract/jobs/jobsTableKeys.js";

describe("jobCounterShardOf", () => {
  it("puts K consecutive lines on K different counters", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 99 }),
        (first, shards) => {
          const used = new Set(
            Array.from({ length: shards }, (_, index) => jobCounterShardOf(first + index, shards)),
          );
          assert.equal(used.size, shards);
        },
      ),
    );
  });

  it("gives a line always the same counter, in 0..K−1, whose item lies below the job record", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (line) => {
        const shard = jobCounterShardOf(line);
        assert.equal(shard, jobCounterShardOf(line));
        assert.ok(shard >= 0 && shard < JOB_COUNTER_SHARDS);
        assert.ok(jobCounterLine(shard) <= -1 && jobCounterLine(shard) >= -JOB_COUNTER_SHARDS);
      }),
    );
  });
});
