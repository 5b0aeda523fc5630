/**
 * The decide function: the Lambda adapter of the pipeline core (`core/pipeline`). SQS
 * records in (`parseRecord`), `batchItemFailures` out, Powertools telemetry, the SageMaker and
 * DynamoDB clients behind the core's ports.
 */
export { DECIDE_METRICS } from "../../contract/metrics/decideMetrics.js";
export { ConfigError, type ConfigProblem } from "../../core/common/ConfigError.js";
export { createDecideDeps, type DecideParts } from "./createDecideDeps.js";
export { createDecideHandler } from "./createDecideHandler.js";
export { DecideTelemetry } from "./DecideTelemetry.js";
export { type DecideDeps, type DecideSettings, decideBatch } from "./decideBatch.js";
export { parseRecord } from "./parseRecord.js";
export { type DecideConfig, readDecideConfig } from "./readDecideConfig.js";
