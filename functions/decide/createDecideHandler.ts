import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import sqsPartialBatchFailure from "@middy/sqs-partial-batch-failure";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { type DecideDeps, decideBatch } from "./decideBatch.js";

/**
 * The decide function's middy handler over {@link decideBatch}: Powertools logger context and
 * EMF metrics (cold start included), and `@middy/sqs-partial-batch-failure` turning the settled
 * results into `{batchItemFailures}` (transient failures only; permanent ones became `rejected`
 * outcomes). The entry point (`handler.ts`), the tests and the local poller all call this.
 */
export function createDecideHandler(deps: DecideDeps) {
  const { logger, metrics } = deps.telemetry;
  return middy<SQSEvent, SQSBatchResponse, Error, Context>()
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(
      sqsPartialBatchFailure({
        logger: (reason: unknown, record: { messageId: string }) =>
          deps.telemetry.recordFailed(record.messageId, reason),
      }),
    )
    .handler(
      // The middleware's `after` replaces these settled results with the batch response.
      async (event, context) =>
        (await decideBatch(event.Records, context, deps)) as unknown as SQSBatchResponse,
    );
}
