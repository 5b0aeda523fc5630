import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AttributeValue as SdkAttributeValue } from "@aws-sdk/client-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { AttributeValue, DynamoDBRecord } from "aws-lambda";
import { type Job, JobCompletedDetailSchema } from "../../../contract/index.js";
import { jobEventsOf } from "../../../functions/jobEvents/index.js";

const counts = {
  lines: 4,
  sent: 3,
  rejected_at_ingest: 1,
  outcomes: { decided: 2, fallback: 0, overridden: 0, rejected: 1 },
  dead_lettered: 1,
  ended: 4,
  duplicates: 0,
};

function job(fields: Partial<Job>): Job {
  return {
    job_id: "job-0123456789abcdef0123456789abcdef",
    source: "s3://ingest/incoming/a.jsonl",
    bucket: "ingest",
    key: "incoming/a.jsonl",
    version_id: "v1",
    status: "complete_with_errors",
    counts,
    created_at: "2026-12-02T10:00:00.000Z",
    read_at: "2026-12-02T10:00:01.000Z",
    ended_at: "2026-12-02T10:04:00.000Z",
    completed_at: "2026-12-02T10:04:02.000Z",
    updated_at: "2026-12-02T10:04:02.000Z",
    results_uri: "s3://ingest/results/job-0123456789abcdef0123456789abcdef/results.jsonl",
    manifest_uri: "s3://ingest/results/job-0123456789abcdef0123456789abcdef/manifest.json",
    ...fields,
  };
}

/** The stream record of a job record's change, as the jobs table's stream writes it. */
function streamRecord(newImage: Job | undefined): DynamoDBRecord {
  const image = (item: Job) =>
    marshall({ ...item, line: 0, record_kind: "job" }, { removeUndefinedValues: true }) as Record<
      string,
      SdkAttributeValue
    > as unknown as Record<string, AttributeValue>;
  return {
    eventID: "e-1",
    eventName: "MODIFY",
    dynamodb: {
      Keys: { job_id: { S: "job-0123456789abcdef0123456789abcdef" }, line: { N: "0" } },
      ...(newImage === undefined ? {} : { NewImage: image(newImage) }),
      SequenceNumber: "100",
    },
  };
}

describe("jobEventsOf", () => {
  it("turns a completed job's new image into the contract's detail, numbers as numbers and no table fields", () => {
    const [detail, ...others] = jobEventsOf([streamRecord(job({}))]);

    assert.deepEqual(others, []);
    assert.deepEqual(detail, {
      job_id: "job-0123456789abcdef0123456789abcdef",
      status: "complete_with_errors",
      source: "s3://ingest/incoming/a.jsonl",
      version_id: "v1",
      counts,
      results_uri: "s3://ingest/results/job-0123456789abcdef0123456789abcdef/results.jsonl",
      manifest_uri: "s3://ingest/results/job-0123456789abcdef0123456789abcdef/manifest.json",
      created_at: "2026-12-02T10:00:00.000Z",
      completed_at: "2026-12-02T10:04:02.000Z",
    });
    assert.ok(JobCompletedDetailSchema.safeParse(detail).success);
  });

  it("gives a failed job's reason and no URIs it does not have, one detail per record in order", () => {
    const failed = job({
      job_id: "job-ffffffffffffffffffffffffffffffff",
      status: "failed",
      reason: "the jobs table holds 3 ended lines for 4 lines counted; results not complete",
      results_uri: undefined,
      manifest_uri: undefined,
    });

    const details = jobEventsOf([streamRecord(job({})), streamRecord(failed)]);

    assert.deepEqual(
      details.map((detail) => [detail.job_id, detail.status]),
      [
        ["job-0123456789abcdef0123456789abcdef", "complete_with_errors"],
        ["job-ffffffffffffffffffffffffffffffff", "failed"],
      ],
    );
    assert.equal(details[1]?.reason, failed.reason);
    assert.equal("results_uri" in (details[1] ?? {}), false);
  });

  it("refuses a record without a new image or of a job that is not final (the Pipe keeps it)", () => {
    assert.throws(() => jobEventsOf([streamRecord(undefined)]), /no new image/);
    assert.throws(
      () => jobEventsOf([streamRecord(job({ status: "deciding", completed_at: undefined }))]),
      /is deciding, not final/,
    );
  });
});
