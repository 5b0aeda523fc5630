import { JOB_LANE } from "../../contract/lanes/lanes.js";
import { IngestTrigger } from "../ingest/IngestTrigger.js";
import { createLocalIngestHandler } from "./createLocalIngestHandler.js";
import type { IngestPlan } from "./LocalStackPlan.js";
import type { StackHandlerContext } from "./StackHandlerContext.js";
import type { StartedParts } from "./StartedParts.js";
import type { LocalIngestOptions } from "./StartLocalStackOptions.js";

/**
 * Builds the ingest function on the bulk lane's context (every line of a batch job travels in the
 * bulk lane) and the trigger that invokes it for objects put under the prefix, as the deployed
 * S3 → EventBridge rule does, with the rule's key pattern, the state machine's definition and the
 * function's timeout from the template (`plan`) unless the options give a prefix or suffix; both are registered in `parts`
 * (the trigger stops first).
 */
export async function startIngestTrigger(
  options: LocalIngestOptions,
  contextOf: (lane: typeof JOB_LANE) => StackHandlerContext,
  where: { bucket: string; region: string; plan: IngestPlan },
  parts: StartedParts,
): Promise<IngestTrigger> {
  const { prefix, suffix, onIngested, ...handlerOptions } = options;
  const ingestHandler = await createLocalIngestHandler(contextOf(JOB_LANE), handlerOptions);
  parts.add("the ingest function", () => ingestHandler.close());
  const trigger = new IngestTrigger({
    bucket: where.bucket,
    region: where.region,
    stateMachine: where.plan.stateMachine,
    functionId: where.plan.function.logicalId,
    invoke: ingestHandler.invoke,
    prefix: prefix ?? where.plan.prefix,
    suffix: suffix ?? where.plan.suffix,
    timeoutMs: where.plan.function.timeoutSeconds * 1000,
    ...(onIngested === undefined ? {} : { onIngested }),
  });
  parts.add("the ingest trigger", () => trigger.stop());
  return trigger;
}
