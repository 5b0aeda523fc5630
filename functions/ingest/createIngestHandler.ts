import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context } from "aws-lambda";
import { Deadline } from "../shared/Deadline.js";
import { checkpointsOfEvent } from "./checkpointsOfEvent.js";
import { type IngestDeps, ingestObject } from "./ingestObject.js";
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
 * Metrics: `IngestedLines`, `IngestRejectedLines`, `IngestFailedMessages`.
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
        deps.metrics.addMetric("IngestedLines", MetricUnit.Count, done.sent);
        deps.metrics.addMetric("IngestRejectedLines", MetricUnit.Count, done.rejected);
        deps.metrics.addMetric("IngestFailedMessages", MetricUnit.Count, done.failed.length);
        for (const failed of done.failed) deps.logger.error("message not sent", { ...failed, key: done.key });
      }
      return result;
    });
}
