import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type Clock, systemClock } from "../../core/common/Clock.js";
import { resolveDriftOptions } from "../../core/drift/DriftOptions.js";
import { OutcomesReader } from "../../core/outcomes/OutcomesReader.js";
import type { DriftMonitorDeps } from "./createDriftMonitorHandler.js";
import { DriftMonitor } from "./DriftMonitor.js";
import type { DriftMonitorConfig } from "./readDriftMonitorConfig.js";

/** Parts {@link createDriftMonitorDeps} builds unless given (tests pass local clients and clocks). */
export interface DriftMonitorParts {
  dynamodb?: DynamoDBClient;
  clock?: Clock;
  logger?: Logger;
  metrics?: Metrics;
}

/**
 * Builds the drift monitor's dependencies: an outcomes reader on a document client (the SDK's
 * standard retries: a check that fails is simply the next one's), the options from the
 * configuration, the monitor.
 * @throws DriftOptionsError when the configuration's options are out of range.
 */
export function createDriftMonitorDeps(
  config: DriftMonitorConfig,
  parts: DriftMonitorParts = {},
): DriftMonitorDeps {
  const client = DynamoDBDocumentClient.from(parts.dynamodb ?? new DynamoDBClient({}));
  return {
    monitor: new DriftMonitor({
      reader: new OutcomesReader({ client, tableName: config.outcomesTable }),
      clock: parts.clock ?? systemClock,
      policies: config.policies,
      options: resolveDriftOptions({
        windowMinutes: config.windowMinutes,
        baselineWindows: config.baselineWindows,
        minOutcomes: config.minOutcomes,
        threshold: config.threshold,
      }),
    }),
    logger: parts.logger ?? new Logger(),
    metrics: parts.metrics ?? new Metrics(),
  };
}
