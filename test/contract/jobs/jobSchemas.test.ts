import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  emptyJobCounts,
  isFinalJobStatus,
  JOB_ID_PATTERN,
  JobCompletedDetailSchema,
  JobManifestSchema,
  JobResultLineSchema,
  JobSchema,
} from "../../../contract/index.js";
import { jobIdOf } from "../../../core/jobs/jobIdOf.js";

const at = "2026-12-01T23:00:00.000Z";

describe("contract/jobs", () => {
  it("job ids are deterministic per object version and differ between versions", () => {
    const a = jobIdOf({ bucket: "b", key: "in/x.jsonl", versionId: "v1" });
    assert.match(a, JOB_ID_PATTERN);
    assert.equal(jobIdOf({ bucket: "b", key: "in/x.jsonl", versionId: "v1" }), a);
    assert.notEqual(jobIdOf({ bucket: "b", key: "in/x.jsonl", versionId: "v2" }), a);
    assert.notEqual(jobIdOf({ bucket: "b", key: "in/y.jsonl", versionId: "v1" }), a);
    // Without versioning the ETag tells two uploads apart; a version and an ETag never collide.
    assert.notEqual(
      jobIdOf({ bucket: "b", key: "k", etag: '"e1"' }),
      jobIdOf({ bucket: "b", key: "k", etag: '"e2"' }),
    );
    assert.notEqual(
      jobIdOf({ bucket: "b", key: "k", etag: "x" }),
      jobIdOf({ bucket: "b", key: "k", versionId: "x" }),
    );
  });

  it("a job record parses and refuses an unknown status or a negative count", () => {
    const job = {
      job_id: jobIdOf({ bucket: "b", key: "k", versionId: "v" }),
      source: "s3://b/k",
      bucket: "b",
      key: "k",
      version_id: "v",
      status: "reading",
      counts: emptyJobCounts(),
      created_at: at,
      updated_at: at,
    };
    assert.equal(JobSchema.parse(job).status, "reading");
    assert.equal(JobSchema.safeParse({ ...job, status: "done" }).success, false);
    assert.equal(JobSchema.safeParse({ ...job, counts: { ...emptyJobCounts(), sent: -1 } }).success, false);
    assert.equal(isFinalJobStatus("complete_with_errors"), true);
    assert.equal(isFinalJobStatus("deciding"), false);
  });

  it("results lines, the manifest and the completion event parse", () => {
    const line = JobResultLineSchema.parse({
      line: 1,
      id: "t-1",
      policy: "ticket-triage",
      status: "decided",
      answers: { queue: { answer: "billing", probability: 0.93 } },
    });
    assert.equal(line.answers?.queue?.answer, "billing");
    assert.equal(JobResultLineSchema.safeParse({ ...line, line: 0 }).success, false);
    assert.equal(JobResultLineSchema.safeParse({ ...line, status: "lost" }).success, false);
    const counts = { ...emptyJobCounts(), lines: 2, sent: 1, rejected_at_ingest: 1, ended: 2 };
    counts.outcomes.decided = 1;
    counts.outcomes.rejected = 1;
    const manifest = JobManifestSchema.parse({
      job_id: "job-0",
      source: "s3://b/k",
      status: "complete_with_errors",
      results_uri: "s3://b/results/job-0/results.jsonl",
      result_lines: 2,
      result_bytes: 100,
      counts,
      timings: { created_at: at, completed_at: at, total_ms: 0 },
      policies: [{ name: "ticket-triage", version: 3, sha256: "ab", lines: 1 }],
      models: [{ model: "tiny", lines: 1 }],
    });
    assert.equal(manifest.counts.lines, 2);
    const detail = JobCompletedDetailSchema.parse({
      job_id: "job-0",
      status: "complete_with_errors",
      source: "s3://b/k",
      counts,
      results_uri: manifest.results_uri,
      manifest_uri: "s3://b/results/job-0/manifest.json",
      created_at: at,
      completed_at: at,
    });
    assert.equal(detail.status, "complete_with_errors");
    assert.equal(JobCompletedDetailSchema.safeParse({ ...detail, status: "deciding" }).success, false);
  });
});
