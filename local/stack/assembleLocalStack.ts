import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import type { LocalDeliveries } from "../delivery/startLocalDeliveries.js";
import type { WorkQueue } from "../eventSource/createWorkQueue.js";
import type { SqsEventSourcePoller } from "../eventSource/SqsEventSourcePoller.js";
import type { LocalIam } from "../iam/LocalIam.js";
import type { IngestTrigger } from "../ingest/IngestTrigger.js";
import type { LocalClients } from "./createLocalClients.js";
import type { LaneCapacity } from "./deriveLocalLaneCapacity.js";
import type { LocalLane, LocalStack } from "./LocalStack.js";
import type { LocalStackPlan } from "./LocalStackPlan.js";
import type { StackServices } from "./startStackServices.js";

/** The started parts of a stack and its names, from which {@link assembleLocalStack} builds it. */
export interface StackAssembly {
  region: string;
  table: string;
  bucket: string;
  endpointName: string;
  services: StackServices;
  clients: Required<Omit<LocalClients, "destroy">>;
  queues: Record<Lane, WorkQueue>;
  pollers: Record<Lane, SqsEventSourcePoller>;
  capacity: Record<Lane, LaneCapacity>;
  trigger: IngestTrigger | undefined;
  /** The jobs table, when the stack runs batch jobs. */
  jobsTable: string | undefined;
  /** Outcome deliveries, when asked for. */
  deliveries: LocalDeliveries | undefined;
  /** IAM enforced on the functions' calls, when asked for. */
  iam: LocalIam | undefined;
  startupMs: Record<string, number>;
  plan: LocalStackPlan;
  /** Stops everything the stack started (idempotent). */
  stop: () => Promise<void>;
}

/**
 * The running stack as its callers see it: each lane's queue, DLQ and poller, the interactive
 * lane's also at the top level, every endpoint and name, and `connectionInfo()` as `decisions up`
 * prints it.
 */
export function assembleLocalStack(assembly: StackAssembly): LocalStack {
  const { region, table, bucket, endpointName, services, queues, trigger, jobsTable } = assembly;
  const { model, dynamodb, fauxqs, adapter, shadow, gateway } = services;
  const lanes = Object.fromEntries(
    LANES.map((lane) => {
      const { maxReceiveCount: _, ...urls } = queues[lane];
      return [lane, { ...urls, poller: assembly.pollers[lane], capacity: assembly.capacity[lane] }];
    }),
  ) as Record<Lane, LocalLane>;
  const perLane = (url: (lane: LocalLane) => string): Record<Lane, string> => ({
    interactive: url(lanes.interactive),
    bulk: url(lanes.bulk),
  });
  return {
    region,
    model,
    sqsEndpoint: fauxqs.endpoint,
    queueUrl: lanes.interactive.queueUrl,
    queueArn: lanes.interactive.queueArn,
    dlqUrl: lanes.interactive.dlqUrl,
    dlqArn: lanes.interactive.dlqArn,
    lanes,
    maxReceiveCount: queues.interactive.maxReceiveCount,
    dynamodbEndpoint: dynamodb.endpoint,
    table,
    s3Endpoint: fauxqs.endpoint,
    bucket,
    gatewayUrl: gateway.url,
    endpointName,
    adapterUrl: adapter.url,
    shadow,
    clients: assembly.clients,
    dynamodb,
    fauxqs,
    adapter,
    gateway,
    poller: lanes.interactive.poller,
    ingest: trigger,
    deliveries: assembly.deliveries,
    iam: assembly.iam,
    startupMs: assembly.startupMs,
    plan: assembly.plan,
    connectionInfo: () => ({
      region,
      sqs_endpoint: fauxqs.endpoint,
      queue_url: lanes.interactive.queueUrl,
      dlq_url: lanes.interactive.dlqUrl,
      queue_urls: perLane((lane) => lane.queueUrl),
      dlq_urls: perLane((lane) => lane.dlqUrl),
      dynamodb_endpoint: dynamodb.endpoint,
      table,
      s3_endpoint: fauxqs.endpoint,
      bucket,
      gateway_url: gateway.url,
      endpoint_name: endpointName,
      adapter_url: adapter.url,
      model: model.path,
      model_sha256: model.sha256,
      model_generated: String(model.generated),
      ...(shadow === undefined
        ? {}
        : {
            shadow_adapter_url: shadow.adapterUrl,
            shadow_endpoint_name: shadow.endpointName,
            shadow_model: shadow.model.path,
            shadow_model_sha256: shadow.model.sha256,
          }),
      ...(trigger === undefined ? {} : { ingest_prefix: trigger.prefix, ingest_suffix: trigger.suffix }),
      ...(jobsTable === undefined ? {} : { jobs_table: jobsTable }),
      ...(assembly.deliveries === undefined ? {} : { delivery_dlq_url: assembly.deliveries.dlqUrl }),
    }),
    stop: assembly.stop,
    [Symbol.asyncDispose]: assembly.stop,
  };
}
