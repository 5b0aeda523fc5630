/**
 * A child process that runs one measured step of a job (`decisions bench --job`): the ingest
 * workflow on an object, or the results writer of a job, each in a process of its own so that its
 * peak RSS is its own. It reports ready, waits for its step on the IPC channel, runs it and reports
 * what it did with `process.resourceUsage().maxRSS` before and after (KiB), then exits.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { RetryPolicy } from "../../../core/common/index.js";
import { JobLedger, JobResultsWriter } from "../../../core/jobs/index.js";
import { objectCreatedEvent } from "../../../local/ingest/objectCreatedEvent.js";
import { runIngestWorkflow } from "../../../local/ingest/runIngestWorkflow.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { createLocalIngestHandler } from "../../../local/stack/createLocalIngestHandler.js";
import type { JobStepReport, JobStepRequest } from "./jobStepProtocol.js";

function send(message: JobStepReport | { ready: true }): Promise<void> {
  return new Promise((resolve, reject) =>
    process.send?.(message, (error: Error | null) => (error ? reject(error) : resolve())),
  );
}

async function runStep(request: JobStepRequest): Promise<JobStepReport> {
  const { stack } = request;
  if (request.step === "ingest") {
    const handler = await createLocalIngestHandler({
      region: stack.region,
      table: stack.table,
      queueUrl: stack.queueUrl,
      endpoints: stack.endpoints,
      // The bench follows the job record for its end: nothing to start from here.
      jobs: {
        table: stack.jobsTable,
        maxReceiveCount: stack.maxReceiveCount,
        onJobEnded: async () => undefined,
      },
    });
    try {
      const baseline = process.resourceUsage().maxRSS;
      const started = performance.now();
      const result = await runIngestWorkflow(
        objectCreatedEvent({ ...request.object, time: new Date() }, stack.region),
        {
          stateMachine: request.ingest.stateMachine,
          functionId: request.ingest.function.logicalId,
          invoke: handler.invoke,
          region: stack.region,
          timeoutMs: request.ingest.function.timeoutSeconds * 1000,
        },
      );
      const ms = performance.now() - started;
      return {
        ok: true,
        ms,
        baseline_maxrss_kib: baseline,
        peak_maxrss_kib: process.resourceUsage().maxRSS,
        result,
      };
    } finally {
      handler.close();
    }
  }
  const dynamodb = new DynamoDBClient({
    region: stack.region,
    endpoint: stack.endpoints.dynamodb,
    credentials: LOCAL_CREDENTIALS,
  });
  const s3 = new S3Client({
    region: stack.region,
    endpoint: stack.endpoints.s3,
    forcePathStyle: true,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    const writer = new JobResultsWriter({
      ledger: new JobLedger({
        client: DynamoDBDocumentClient.from(dynamodb, { marshallOptions: { removeUndefinedValues: true } }),
        jobsTable: stack.jobsTable,
        outcomesTable: stack.table,
        retry: new RetryPolicy({ maxAttempts: 3 }),
      }),
      s3,
      ...(request.partBytes === undefined ? {} : { partBytes: request.partBytes }),
    });
    const baseline = process.resourceUsage().maxRSS;
    const started = performance.now();
    const outcome = await writer.write(request.jobId);
    const ms = performance.now() - started;
    return {
      ok: true,
      ms,
      baseline_maxrss_kib: baseline,
      peak_maxrss_kib: process.resourceUsage().maxRSS,
      result: outcome.written
        ? {
            written: true,
            result_bytes: outcome.manifest.result_bytes,
            result_lines: outcome.manifest.result_lines,
          }
        : { written: false, why: outcome.why },
    };
  } finally {
    dynamodb.destroy();
    s3.destroy();
  }
}

process.once("message", (request: JobStepRequest) => {
  runStep(request)
    .catch(
      (error: unknown): JobStepReport => ({
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
    )
    .then((report) => send(report))
    .then(
      () => process.disconnect(),
      () => process.exit(1),
    );
});
void send({ ready: true });
