import type { Logger } from "@aws-lambda-powertools/logger";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { DynamoDBBatchResponse, DynamoDBRecord } from "aws-lambda";
import { JOB_METRICS } from "../../contract/metrics/jobMetrics.js";
import { JobResultsMismatchError } from "../../core/jobs/errors.js";
import type { JobResultsWriter } from "../../core/jobs/JobResultsWriter.js";

/** What {@link writeEndedJobs} needs. */
export interface EndedJobsDeps {
  writer: Pick<JobResultsWriter, "write">;
  logger: Logger;
  metrics: Metrics;
}

/**
 * Writes the results of each job whose record is in `records` (jobs table stream records, filtered
 * by the event source to the change that set a job's `ended_at`) and returns the records to
 * deliver again as `{batchItemFailures}` (by sequence number): those whose write failed for a
 * reason that may pass (S3 or DynamoDB unavailable, throttled). A write is safe to repeat: a job
 * that is final already is left as it is.
 *
 * A {@link JobResultsMismatchError} is final: the writer has marked the job `failed` with the
 * reason, and writing again would find the same line items; the record is not given back.
 */
export async function writeEndedJobs(
  records: readonly DynamoDBRecord[],
  deps: EndedJobsDeps,
): Promise<DynamoDBBatchResponse> {
  const { logger, metrics } = deps;
  const batchItemFailures: DynamoDBBatchResponse["batchItemFailures"] = [];
  for (const record of records) {
    const jobId = record.dynamodb?.Keys?.job_id?.S;
    // Lambda retries from the lowest sequence number given back; one it cannot match (none here)
    // makes it retry the whole batch, which is what a record without one needs.
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? "";
    if (jobId === undefined) {
      logger.warn("stream record without a job id; skipped", { eventId: record.eventID });
      continue;
    }
    try {
      const outcome = await deps.writer.write(jobId);
      if (!outcome.written) {
        logger.info("nothing to write", { jobId, why: outcome.why });
        continue;
      }
      metrics.addMetric(JOB_METRICS.completedJobs, MetricUnit.Count, 1);
      metrics.addMetric(JOB_METRICS.resultLines, MetricUnit.Count, outcome.manifest.result_lines);
      const writing = outcome.manifest.timings.writing_ms;
      if (writing !== undefined)
        metrics.addMetric(JOB_METRICS.resultsLatency, MetricUnit.Milliseconds, writing);
      logger.info("job results written", {
        jobId,
        status: outcome.detail.status,
        resultsUri: outcome.detail.results_uri,
        lines: outcome.manifest.result_lines,
      });
    } catch (error) {
      if (error instanceof JobResultsMismatchError) {
        metrics.addMetric(JOB_METRICS.completedJobs, MetricUnit.Count, 1);
        logger.error("job failed: its line items do not match its counts", { jobId, reason: error.message });
        continue;
      }
      logger.warn("job results not written; the stream delivers the record again", {
        jobId,
        error: error instanceof Error ? error.name : typeof error,
        reason: error instanceof Error ? error.message : String(error),
      });
      batchItemFailures.push({ itemIdentifier: sequenceNumber });
    }
  }
  return { batchItemFailures };
}
