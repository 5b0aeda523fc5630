import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import type { LocalStackPlan } from "../stack/LocalStackPlan.js";
import type { LocalResourceNames } from "./DeployedNames.js";
import type { TemplateResolver } from "./TemplateResolver.js";

/** The local stack's own names of the resources the template declares. */
export interface LocalStackNames {
  /** The outcomes table. */
  table: string;
  /** The jobs table. */
  jobsTable: string;
  /** Each lane's work queue and DLQ names. */
  queues: Record<Lane, { queue: string; deadLetterQueue: string }>;
  /** The bucket (ingest objects, job results and the decide functions' review states). */
  bucket: string;
  /** The endpoint the gateway serves (the decide functions' `ENDPOINT_NAME`). */
  endpointName: string;
  /** The candidate's endpoint, when the stack serves one (`SHADOW_ENDPOINT_NAME`). */
  shadowEndpointName?: string;
}

/**
 * Which resource of the template each local name stands for: the tables and queues by the plan's
 * logical ids (the template's, read by `readStackTemplate`), the bucket as the decide function's
 * `STATE_ARCHIVE_BUCKET` names it, the endpoints by the decide function's `ENDPOINT_NAME` and
 * `SHADOW_ENDPOINT_NAME` (resolved: the names the deployed functions call). A candidate endpoint
 * the template does not declare keeps its local name (a call to it is refused as on AWS).
 */
export function stackResourceNames(
  resolver: TemplateResolver,
  plan: LocalStackPlan,
  local: LocalStackNames,
): LocalResourceNames {
  const queues: Record<string, string> = {};
  for (const lane of LANES) {
    queues[local.queues[lane].queue] = plan.lanes[lane].queue.logicalId;
    queues[local.queues[lane].deadLetterQueue] = plan.lanes[lane].deadLetterQueue.logicalId;
  }
  const environment =
    (
      resolver.resource(plan.lanes.interactive.function.logicalId).Properties?.Environment as
        | { Variables?: Record<string, unknown> }
        | undefined
    )?.Variables ?? {};
  const bucketId = (environment.STATE_ARCHIVE_BUCKET as { Ref?: string } | undefined)?.Ref;
  const endpoints: Record<string, string> = {};
  if (environment.ENDPOINT_NAME !== undefined)
    endpoints[local.endpointName] = resolver.resolveString(environment.ENDPOINT_NAME);
  if (local.shadowEndpointName !== undefined && environment.SHADOW_ENDPOINT_NAME !== undefined)
    endpoints[local.shadowEndpointName] = resolver.resolveString(environment.SHADOW_ENDPOINT_NAME);
  return {
    tables: { [local.table]: plan.tables.outcomes.logicalId, [local.jobsTable]: plan.tables.jobs.logicalId },
    queues,
    buckets: bucketId === undefined ? {} : { [local.bucket]: bucketId },
    endpoints,
  };
}
