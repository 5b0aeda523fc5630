import type { Lane } from "../../contract/lanes/lanes.js";
import type { WorkQueue } from "../eventSource/createWorkQueue.js";
import type { FunctionIam } from "../iam/LocalIam.js";
import type { LocalClients } from "./createLocalClients.js";
import type { LaneCapacity } from "./deriveLocalLaneCapacity.js";
import type { StackHandlerContext } from "./StackHandlerContext.js";
import type { StackServices } from "./startStackServices.js";

/** The started stack as the lanes' handler contexts name it. */
export interface LaneContextSource {
  region: string;
  /** Each lane's share of the adapter. */
  capacity: Record<Lane, LaneCapacity>;
  clients: Required<Omit<LocalClients, "destroy">>;
  /** The outcomes table. */
  table: string;
  endpointName: string;
  /** The started services: their endpoints, and the candidate's endpoint name when there is one. */
  services: StackServices;
  queues: Record<Lane, WorkQueue>;
  bucket: string;
  functionTimeoutMs: number;
  /** Registers a handler's cleanup with the stack's stop. */
  onStop: (cleanup: () => Promise<void> | void) => void;
  /** Batch jobs, when the stack runs them. */
  jobs: StackHandlerContext["jobs"];
  /**
   * Each lane's decide function's own clients and role, when the stack enforces IAM: its context
   * carries them instead of the stack's shared clients. Absent: IAM is not enforced.
   */
  functions?: Record<Lane, { clients: Required<Omit<LocalClients, "destroy">>; iam: FunctionIam }>;
}

/** The context the stack gives the handler factory of `lane`: that lane's queue and capacity, the rest shared. */
export function laneHandlerContext(source: LaneContextSource, lane: Lane): StackHandlerContext {
  return {
    region: source.region,
    lane,
    capacity: source.capacity[lane],
    ...(source.functions?.[lane].clients ?? source.clients),
    ...(source.functions === undefined ? {} : { iam: source.functions[lane].iam }),
    table: source.table,
    endpointName: source.endpointName,
    ...(source.services.shadow === undefined
      ? {}
      : { shadowEndpointName: source.services.shadow.endpointName }),
    queueUrl: source.queues[lane].queueUrl,
    bucket: source.bucket,
    endpoints: {
      sqs: source.services.fauxqs.endpoint,
      s3: source.services.fauxqs.endpoint,
      dynamodb: source.services.dynamodb.endpoint,
      sagemakerRuntime: source.services.gateway.url,
    },
    functionTimeoutMs: source.functionTimeoutMs,
    onStop: source.onStop,
    ...(source.jobs === undefined ? {} : { jobs: { ...source.jobs } }),
  };
}
