import type { Logger } from "@aws-lambda-powertools/logger";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context } from "aws-lambda";
import type { CapacityCheck, CapacityController } from "./CapacityController.js";
import { emitCapacityCheck } from "./emitCapacityCheck.js";
import { CapacityCheckError } from "./errors.js";

/** What the capacity controller's handler needs. */
export interface CapacityControllerDeps {
  controller: Pick<CapacityController, "check">;
  endpointName: string;
  logger: Logger;
  metrics: Metrics;
}

/**
 * The capacity controller's middy handler (a scheduled EventBridge event in, the check out): one
 * {@link CapacityController.check}, its metrics published and logged.
 *
 * @throws {CapacityCheckError} after publishing, when a step of the check failed (the function's
 *   error alarm counts it).
 */
export function createCapacityControllerHandler(deps: CapacityControllerDeps) {
  return middy<unknown, CapacityCheck, Error, Context>()
    .use(injectLambdaContext(deps.logger))
    .use(logMetrics(deps.metrics))
    .handler(async () => {
      const check = await deps.controller.check();
      emitCapacityCheck(check, deps.endpointName, deps.metrics, deps.logger);
      if (check.failures.length > 0) throw new CapacityCheckError(check.failures);
      return check;
    });
}
