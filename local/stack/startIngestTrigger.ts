import { JOB_LANE } from "../../contract/lanes/lanes.js";
import { IngestTrigger } from "../ingest/IngestTrigger.js";
import { createLocalIngestHandler } from "./createLocalIngestHandler.js";
import type { StackHandlerContext } from "./StackHandlerContext.js";
import type { StartedParts } from "./StartedParts.js";
import type { LocalIngestOptions } from "./StartLocalStackOptions.js";

/**
 * Builds the ingest function on the bulk lane's context (every line of a batch job travels in the
 * bulk lane) and the trigger that invokes it for objects put under the prefix, as the deployed
 * S3 → EventBridge rule does; both are registered in `parts` (the trigger stops first).
 */
export async function startIngestTrigger(
  options: LocalIngestOptions,
  contextOf: (lane: typeof JOB_LANE) => StackHandlerContext,
  where: { bucket: string; region: string },
  parts: StartedParts,
): Promise<IngestTrigger> {
  const { prefix, suffix, onIngested, ...handlerOptions } = options;
  const ingestHandler = await createLocalIngestHandler(contextOf(JOB_LANE), handlerOptions);
  parts.add("the ingest function", () => ingestHandler.close());
  const trigger = new IngestTrigger({
    bucket: where.bucket,
    region: where.region,
    invoke: ingestHandler.invoke,
    ...(prefix === undefined ? {} : { prefix }),
    ...(suffix === undefined ? {} : { suffix }),
    ...(onIngested === undefined ? {} : { onIngested }),
  });
  parts.add("the ingest trigger", () => trigger.stop());
  return trigger;
}
