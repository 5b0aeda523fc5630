import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from "aws-lambda";
import { type EndedJobsDeps, writeEndedJobs } from "./writeEndedJobs.js";

/**
 * The results writer's middy handler over {@link writeEndedJobs}: Powertools logger context and
 * EMF metrics (cold start included), the jobs table's stream records in, the records to deliver
 * again out (`ReportBatchItemFailures`).
 */
export function createResultsWriterHandler(deps: EndedJobsDeps) {
  return middy<DynamoDBStreamEvent, DynamoDBBatchResponse, Error, Context>()
    .use(injectLambdaContext(deps.logger))
    .use(logMetrics(deps.metrics, { captureColdStartMetric: true }))
    .handler((event) => writeEndedJobs(event.Records, deps));
}
