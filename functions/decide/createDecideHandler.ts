import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { type DecideDeps, decideBatch } from "./decideBatch.js";

/**
 * The decide function's middy handler over {@link decideBatch}: Powertools logger context and
 * EMF metrics (cold start included), the batch decided by the pipeline core, and the records to
 * redeliver as `{batchItemFailures}` (transient failures only; permanent ones became `rejected`
 * outcomes). The entry point (`handler.ts`), the tests and the local poller all call this.
 */
export function createDecideHandler(deps: DecideDeps) {
  const { logger, metrics } = deps.telemetry;
  return middy<SQSEvent, SQSBatchResponse, Error, Context>()
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .handler((event, context) => decideBatch(event.Records, context, deps));
}
