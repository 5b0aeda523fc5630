import type { Lane } from "../../contract/lanes/lanes.js";
import type { LocalDeliveries } from "../delivery/startLocalDeliveries.js";
import type { SqsEventSourcePoller } from "../eventSource/SqsEventSourcePoller.js";
import type { LocalIam } from "../iam/LocalIam.js";
import type { IngestTrigger } from "../ingest/IngestTrigger.js";
import type { AdapterProcess } from "../services/startAdapterProcess.js";
import type { DynamoDbLocal } from "../services/startDynamoDbLocal.js";
import type { Fauxqs } from "../services/startFauxqs.js";
import type { SageMakerGateway } from "../services/startSageMakerGateway.js";
import type { LocalClients } from "./createLocalClients.js";
import type { LaneCapacity } from "./deriveLocalLaneCapacity.js";
import type { LocalStackPlan } from "./LocalStackPlan.js";
import type { StackModel } from "./prepareStackModel.js";

/** One lane of the running stack: its queue, DLQ, poller and share of the adapter. */
export interface LocalLane {
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
  dlqArn: string;
  poller: SqsEventSourcePoller;
  capacity: LaneCapacity;
}

/** The candidate of the shadow step on the local stack (`StartLocalStackOptions.shadowModel`). */
export interface LocalShadowCandidate {
  /** The candidate's GGUF and its SHA-256 (what its shadow records carry as `model_sha256`). */
  model: StackModel;
  /** The endpoint name the gateway serves it as (the decide function's `SHADOW_ENDPOINT_NAME`). */
  endpointName: string;
  adapterUrl: string;
  /** Its own adapter process. */
  adapter: AdapterProcess;
}

/** What `connectionInfo()` holds: flat values, and the per-lane URLs as `{ interactive, bulk }`. */
export type ConnectionInfo = Record<string, string | number | Record<Lane, string>>;

/**
 * The running stack: every endpoint and name a client needs, the parts, and `stop()`. `queueUrl`,
 * `queueArn`, `dlqUrl`, `dlqArn` and `poller` are the interactive lane's; `lanes` has both.
 */
export interface LocalStack {
  region: string;
  model: StackModel;
  sqsEndpoint: string;
  /** The interactive lane's queue (as `lanes.interactive.queueUrl`). */
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
  dlqArn: string;
  /** Each lane's queue, DLQ and poller. */
  lanes: Record<Lane, LocalLane>;
  maxReceiveCount: number;
  dynamodbEndpoint: string;
  table: string;
  s3Endpoint: string;
  bucket: string;
  gatewayUrl: string;
  endpointName: string;
  adapterUrl: string;
  /** The shadow step's candidate, when `shadowModel` was given. */
  shadow: LocalShadowCandidate | undefined;
  /** SDK clients on the local parts (destroyed by stop). */
  clients: Required<Omit<LocalClients, "destroy">>;
  dynamodb: DynamoDbLocal;
  fauxqs: Fauxqs;
  adapter: AdapterProcess;
  gateway: SageMakerGateway;
  /** The interactive lane's poller (as `lanes.interactive.poller`). */
  poller: SqsEventSourcePoller;
  /** The upload trigger, when `ingest` was given. */
  ingest: IngestTrigger | undefined;
  /** Outcome deliveries (`delivery_dlq_url` in `connectionInfo()`), when `deliveries` was given. */
  deliveries: LocalDeliveries | undefined;
  /**
   * IAM enforced on the functions' calls (`StartLocalStackOptions.iam`): its ledger counts the
   * allowed calls per function and action and keeps the refused ones; `authorize(client, name)`
   * makes a client of the caller's own parts a function's. Absent: IAM is not enforced.
   */
  iam: LocalIam | undefined;
  /** Milliseconds each part took to become ready, and the whole start. */
  startupMs: Record<string, number>;
  /** What the stack was built from: the synthesized template's plan (or the one the options gave). */
  plan: LocalStackPlan;
  /**
   * The connection details as `decisions up` prints them (snake_case keys): `queue_url` and
   * `dlq_url` are the interactive lane's, `queue_urls` and `dlq_urls` name each lane's; with a
   * candidate, `shadow_adapter_url`, `shadow_endpoint_name`, `shadow_model`, `shadow_model_sha256`.
   */
  connectionInfo(): ConnectionInfo;
  /** Stops everything it started, in reverse order (the poller drains first). Idempotent. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}
