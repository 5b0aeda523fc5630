import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context } from "aws-lambda";
import { INGEST_METRICS } from "../../contract/metrics/ingestMetrics.js";
import { Deadline } from "../../core/common/Deadline.js";
import { checkpointsOfEvent } from "./checkpointsOfEvent.js";
import type { IngestDeps } from "./IngestDeps.js";
import { ingestObject } from "./ingestObject.js";
import type { IngestResult } from "./types.js";

/** What the ingest handler needs: {@link IngestDeps}, metrics and the deadline margin. */
export interface IngestHandlerDeps extends IngestDeps {
  metrics: Metrics;
  deadlineMarginMs: number;
}

/**
 * The ingest function's middy handler: reads each object of the event in turn (see
 * {@link checkpointsOfEvent} for the inputs) and returns an {@link IngestResult}; objects not
 * finished (line budget or deadline) are in `pending`, to be passed back as the next input.
 * Metrics: {@link INGEST_METRICS} (lines sent, recorded as rejected, and neither: unsent).
 */
export function createIngestHandler(deps: IngestHandlerDeps) {
  return middy<unknown, IngestResult, Error, Context>()
    .use(injectLambdaContext(deps.logger))
    .use(logMetrics(deps.metrics))
    .handler(async (event, context) => {
      const deadline = Deadline.fromRemaining(
        context.getRemainingTimeInMillis(),
        deps.deadlineMarginMs,
        deps.clock,
      );
      const starts = checkpointsOfEvent(event);
      const result: IngestResult = { objects: [], pending: [] };
      for (const [index, start] of starts.entries()) {
        if (deadline.expired()) {
          result.pending.push(...starts.slice(index));
          break;
        }
        const done = await ingestObject(start, deps, deadline);
        result.objects.push(done);
        if (done.next) result.pending.push(done.next);
        deps.metrics.addMetric(INGEST_METRICS.ingestedLines, MetricUnit.Count, done.sent);
        deps.metrics.addMetric(INGEST_METRICS.rejectedLines, MetricUnit.Count, done.rejected);
        deps.metrics.addMetric(INGEST_METRICS.unsentLines, MetricUnit.Count, done.failed.length);
        for (const failed of done.failed) {
          deps.logger.error("line not sent nor recorded; read again from the checkpoint", {
            ...failed,
            key: done.key,
          });
        }
      }
      return result;
    });
}
