import type { JobCompletedDetail } from "../../contract/index.js";
import type { Lane } from "../../contract/lanes/lanes.js";
import type { LocalDeliveriesOptions } from "../delivery/startLocalDeliveries.js";
import type { SqsBatchHandler, SqsEventSourcePollerOptions } from "../eventSource/SqsEventSourcePoller.js";
import type { LocalIamOptions } from "../iam/LocalIam.js";
import type { IngestedObjectReport } from "../ingest/IngestTrigger.js";
import type { LocalIngestHandlerOptions } from "./createLocalIngestHandler.js";
import type { LocalStackPlan } from "./LocalStackPlan.js";
import type { StackHandlerContext } from "./StackHandlerContext.js";

/** The event source mapping's settings a caller may set, for every lane or for one. */
export type LocalPollerSettings = Pick<
  SqsEventSourcePollerOptions,
  "batchSize" | "maximumBatchingWindowMs" | "maximumConcurrency" | "waitTimeSeconds" | "onBatch" | "onError"
>;

/** Options of `startLocalStack`, which applies every default, in one place. */
export interface StartLocalStackOptions {
  /**
   * Builds the handler a lane's poller runs (the decide function with local clients), once per lane
   * with that lane's context: bulk's first, then interactive's (a caller that keeps the last context
   * it was given keeps the interactive lane's, which `LocalStack.queueUrl` names). Required.
   */
  createHandler: (context: StackHandlerContext) => SqsBatchHandler | Promise<SqsBatchHandler>;
  /**
   * The environment DynamoDB Local and the adapter processes start from: the entry point's own
   * environment, or a test's. Required: each adds its own variables to it.
   */
  env: Readonly<NodeJS.ProcessEnv>;
  /**
   * What the stack is built from: each lane's queue and DLQ attributes, its event source's batching,
   * its function's timeout, the tables. Default: read from the CDK app's default template
   * (`readStackTemplate` on `loadStackTemplate`: synthesized once, then read from
   * `.cache/stack-template/`). The options below that say "the template's" override it.
   */
  plan?: LocalStackPlan;
  /** A GGUF to serve. Default: the generated demo model (`prepareStackModel`). */
  model?: string;
  /**
   * A candidate GGUF for the shadow step: a second adapter process serves it, side by side with the
   * live one, and the gateway serves it as the endpoint `shadowEndpointName`, which each lane's
   * handler context names (`shadowEndpointName`: the decide function's `SHADOW_ENDPOINT_NAME`).
   * Only policies with a `shadow` section ask it. Default: none (no second adapter, no endpoint).
   */
  shadowModel?: string;
  /** The candidate's endpoint name, when `shadowModel` is given. Default `"<endpointName>-candidate"`. */
  shadowEndpointName?: string;
  /** Region of the clients, queue ARNs and records. Default `"us-east-1"`. */
  region?: string;
  /** Ports on 127.0.0.1. Default 0 each: free ones. */
  ports?: { dynamodb?: number; fauxqs?: number; gateway?: number; adapter?: number; shadowAdapter?: number };
  /** The outcomes table. Default `"outcomes"`. */
  table?: string;
  /**
   * The work queues' name prefix: each lane's queue is `<queue>-<lane>` (`work-interactive`,
   * `work-bulk`), its DLQ `<queue>-<lane>-dlq`; both are tagged `lane=<lane>`. Default `"work"`.
   */
  queue?: string;
  /** The ingest bucket. Default `"ingest"`. */
  bucket?: string;
  /** The SageMaker endpoint name the gateway serves. Default `"decisions"`. */
  endpointName?: string;
  /** Receives before the DLQ. Default: the template's redrive policy. */
  maxReceiveCount?: number;
  /** The decide functions' timeout, in ms. Default: the template's (each lane's function's `Timeout`). */
  functionTimeoutMs?: number;
  /**
   * The work queues' visibility timeout, in seconds. Default: the template's; with
   * `functionTimeoutMs` given, 6 × that timeout.
   */
  visibilityTimeoutSeconds?: number;
  /**
   * Every lane's event source mapping. Defaults: the template's batch size and batching window for
   * each lane; the lane's concurrency sized against the local adapter (`deriveLocalLaneCapacity`:
   * interactive 2, bulk 2, the lane shares of its default admission), not the deployed endpoint's.
   * A value given here applies to both lanes.
   */
  poller?: LocalPollerSettings;
  /** One lane's event source mapping, over `poller`. Default: `poller` alone. */
  lanePollers?: Partial<Record<Lane, LocalPollerSettings>>;
  /** llama.cpp threads of the adapter. Default: the adapter's. */
  adapterThreads?: number;
  /** More `decisions serve` flags for the adapter. Default none. */
  adapterArgs?: string[];
  /** DynamoDB Local's data folder (kept across restarts). Default: in memory. */
  dataDir?: string;
  /** The `java` command. Default `"java"`. */
  java?: string;
  /**
   * Ingest objects put under the prefix, as the deployed S3 → EventBridge rule does (`IngestTrigger`). Default: off (`npm start` invokes ingest itself).
   */
  ingest?: LocalIngestOptions;
  /**
   * Run batch jobs (a job per ingested object, results and a manifest in the bucket when its last
   * line has ended): the jobs table is created and handed to the functions. Default: off.
   */
  jobs?: LocalJobsSettings;
  /** Deliver outcomes to the `deliver:` targets of these policies (`startLocalDeliveries`). Default: off. */
  deliveries?: LocalDeliveriesOptions;
  /** Where progress lines go ("DynamoDB Local ready on … (1.2 s)"). Default: nowhere. */
  log?: (line: string) => void;
  /**
   * Enforce IAM: every AWS call of the stack's functions (the decide functions and their event
   * sources, ingest, the results writer) is authorized against that function's role in
   * `iam.template`, with the ARNs AWS would form from the template's names, by `iam.authorizer`; a
   * refused call fails with AccessDeniedException and is recorded (`LocalStack.iam`). The stack is
   * built from `iam.template` unless `plan` is given. Default: off (no evaluator is loaded: the
   * rehearsal supplies one).
   */
  iam?: LocalIamOptions;
}

/** Batch jobs on the local stack (`LocalJobs`). */
export interface LocalJobsSettings {
  /** The jobs table. Default `"jobs"`. */
  table?: string;
  /** Told of every "Decision Job Completed" event. Default: nothing. */
  onCompleted?: (detail: JobCompletedDetail) => void;
  /** Told when a job's results could not be written. Default: nothing. */
  onError?: (jobId: string, error: unknown) => void;
  /**
   * Runs instead of this process's results writer when a job's last line has ended (the job
   * bench writes the results in a process of its own to measure its memory). Default: the
   * results writer in this process.
   */
  onJobEnded?: (jobId: string) => Promise<void>;
}

/** The ingest trigger's settings on the local stack; defaults are the template's. */
export interface LocalIngestOptions extends LocalIngestHandlerOptions {
  /** Default: the template's ingest rule's key pattern, before its wildcard (`incoming/`). */
  prefix?: string;
  /** Default: the template's ingest rule's key pattern, after its wildcard (`.jsonl`). */
  suffix?: string;
  /** Told when an object's ingest workflow ended. Default: nothing. */
  onIngested?: (report: IngestedObjectReport) => void;
}
