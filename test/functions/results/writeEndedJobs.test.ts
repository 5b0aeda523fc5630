import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import type { DynamoDBRecord } from "aws-lambda";
import type { JobCompletedDetail, JobManifest } from "../../../contract/index.js";
import { JobResultsMismatchError, type JobResultsOutcome } from "../../../core/jobs/index.js";
import { writeEndedJobs } from "../../../functions/results/index.js";

function record(jobId: string | undefined, sequenceNumber: string): DynamoDBRecord {
  return {
    eventID: `e-${sequenceNumber}`,
    eventName: "MODIFY",
    dynamodb: {
      ...(jobId === undefined ? {} : { Keys: { job_id: { S: jobId }, line: { N: "0" } } }),
      SequenceNumber: sequenceNumber,
    },
  };
}

function written(jobId: string, lines: number): JobResultsOutcome {
  const counts = {
    lines,
    sent: lines,
    rejected_at_ingest: 0,
    outcomes: { decided: lines, fallback: 0, overridden: 0, rejected: 0 },
    dead_lettered: 0,
    ended: lines,
    duplicates: 0,
  };
  const detail: JobCompletedDetail = {
    job_id: jobId,
    status: "complete",
    source: "s3://ingest/incoming/a.jsonl",
    counts,
    results_uri: `s3://ingest/results/${jobId}/results.jsonl`,
    manifest_uri: `s3://ingest/results/${jobId}/manifest.json`,
    created_at: "2026-12-02T10:00:00.000Z",
    completed_at: "2026-12-02T10:05:00.000Z",
  };
  const manifest: JobManifest = {
    job_id: jobId,
    source: detail.source,
    status: "complete",
    results_uri: detail.results_uri ?? "",
    result_lines: lines,
    result_bytes: 100 * lines,
    counts,
    timings: {
      created_at: detail.created_at,
      completed_at: detail.completed_at,
      writing_ms: 250,
      total_ms: 300_000,
    },
    policies: [],
    models: [],
  };
  return { written: true, detail, manifest };
}

/** Metric name → values of the metrics added and not published yet. */
function metricValues(metrics: Metrics): Record<string, unknown> {
  const document = metrics.serializeMetrics() as unknown as Record<string, unknown>;
  const names = (
    document._aws as { CloudWatchMetrics: Array<{ Metrics: Array<{ Name: string }> }> }
  ).CloudWatchMetrics[0]?.Metrics.map((metric) => metric.Name);
  return Object.fromEntries((names ?? []).map((name) => [name, document[name]]));
}

describe("writeEndedJobs", () => {
  const logger = new Logger({ logLevel: "SILENT" });

  it("writes each ended job and gives back only the record whose write failed for now", async () => {
    const metrics = new Metrics({ namespace: "test", serviceName: "results" });
    const asked: string[] = [];
    const writer = {
      write: async (jobId: string): Promise<JobResultsOutcome> => {
        asked.push(jobId);
        if (jobId === "job-b") throw Object.assign(new Error("S3 is slow down"), { name: "SlowDown" });
        if (jobId === "job-c") return { written: false, why: "already final" };
        return written(jobId, 3);
      },
    };

    const response = await writeEndedJobs(
      [record("job-a", "1"), record("job-b", "2"), record("job-c", "3")],
      {
        writer,
        logger,
        metrics,
      },
    );

    assert.deepEqual(asked, ["job-a", "job-b", "job-c"]);
    assert.deepEqual(response.batchItemFailures, [{ itemIdentifier: "2" }]);
    assert.deepEqual(metricValues(metrics), { JobsCompleted: 1, JobResultLines: 3, JobResultsLatency: 250 });
  });

  it("takes a job whose line items do not match its counts as final (the writer marked it failed)", async () => {
    const metrics = new Metrics({ namespace: "test", serviceName: "results" });
    const writer = {
      write: async (jobId: string): Promise<JobResultsOutcome> => {
        throw new JobResultsMismatchError(jobId, "the jobs table holds 2 ended lines for 3 lines counted");
      },
    };

    const response = await writeEndedJobs([record("job-a", "7")], { writer, logger, metrics });

    assert.deepEqual(response.batchItemFailures, []);
    assert.deepEqual(metricValues(metrics), { JobsCompleted: 1 });
  });

  it("skips a record that names no job rather than blocking the shard on it", async () => {
    const metrics = new Metrics({ namespace: "test", serviceName: "results" });
    const asked: string[] = [];
    const writer = {
      write: async (jobId: string): Promise<JobResultsOutcome> => {
        asked.push(jobId);
        return written(jobId, 1);
      },
    };

    const response = await writeEndedJobs([record(undefined, "1"), record("job-z", "2")], {
      writer,
      logger,
      metrics,
    });

    assert.deepEqual(asked, ["job-z"]);
    assert.deepEqual(response.batchItemFailures, []);
  });
});
