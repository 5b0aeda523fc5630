import { CreateTableCommand, type DynamoDBClient, waitUntilTableExists } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import type { JobCompletedDetail } from "../../contract/index.js";
import { JOB_LANE, LANES, type Lane } from "../../contract/lanes/lanes.js";
import { outcomesTableDefinition } from "../../functions/outcomes/outcomesTable.js";
import { LocalPartError, PartStartError } from "../errors.js";
import { createWorkQueue, type WorkQueue } from "../eventSource/createWorkQueue.js";
import {
  type SqsBatchHandler,
  SqsEventSourcePoller,
  type SqsEventSourcePollerOptions,
} from "../eventSource/SqsEventSourcePoller.js";
import { type IngestedObjectReport, IngestTrigger } from "../ingest/IngestTrigger.js";
import { type AdapterProcess, startAdapterProcess } from "../services/startAdapterProcess.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../services/startDynamoDbLocal.js";
import { type Fauxqs, startFauxqs } from "../services/startFauxqs.js";
import { type SageMakerGateway, startSageMakerGateway } from "../services/startSageMakerGateway.js";
import { createLocalClients, type LocalClients } from "./createLocalClients.js";
import { createLocalIngestHandler, type LocalIngestHandlerOptions } from "./createLocalIngestHandler.js";
import { deriveLocalLaneCapacity, type LaneCapacity } from "./deriveLocalLaneCapacity.js";
import { LocalJobs } from "./LocalJobs.js";
import { prepareStackModel, type StackModel } from "./prepareStackModel.js";
import type { StackHandlerContext } from "./StackHandlerContext.js";

export type { StackHandlerContext };

/**
 * Each lane's batching. Bulk: 10 records, gathered for up to 500 ms (as the CDK app). Interactive:
 * one record per invocation, none waited for — its function runs one endpoint call at a time (its
 * share of the adapter, {@link deriveLocalLaneCapacity}), so a batch of ten incidents would be
 * decided one after the other, the last waiting for nine, and on a busy machine past the
 * function's deadline; one record each, the lane's two invocations decide two incidents at once.
 */
const LANE_BATCHING: Record<Lane, { batchSize: number; maximumBatchingWindowMs: number }> = {
  interactive: { batchSize: 1, maximumBatchingWindowMs: 0 },
  bulk: { batchSize: 10, maximumBatchingWindowMs: 500 },
};

/** The event source mapping's settings a caller may set, for every lane or for one. */
export type LocalPollerSettings = Pick<
  SqsEventSourcePollerOptions,
  "batchSize" | "maximumBatchingWindowMs" | "maximumConcurrency" | "waitTimeSeconds" | "onBatch" | "onError"
>;

/** Options of {@link startLocalStack}; every default is applied here. */
export interface StartLocalStackOptions {
  /**
   * Builds the handler a lane's poller runs (the decide function with local clients), once per lane
   * with that lane's context: bulk's first, then interactive's (a caller that keeps the last context
   * it was given keeps the interactive lane's, which `LocalStack.queueUrl` names). Required.
   */
  createHandler: (context: StackHandlerContext) => SqsBatchHandler | Promise<SqsBatchHandler>;
  /** A GGUF to serve. Default: the generated demo model ({@link prepareStackModel}). */
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
  /** Receives before the DLQ. Default 5 (as the CDK app). */
  maxReceiveCount?: number;
  /** The decide function's timeout. Default 30000 ms. */
  functionTimeoutMs?: number;
  /** The queue's visibility timeout. Default 6 × the function timeout (as the CDK app). */
  visibilityTimeoutSeconds?: number;
  /**
   * Every lane's event source mapping. Defaults: interactive batch size 1, no window; bulk batch
   * size 10, window 500 ms; the lane's concurrency ({@link deriveLocalLaneCapacity}: interactive 2,
   * bulk 2, sized against the adapter's default admission). A value given here applies to both lanes.
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
   * Ingest objects put under the prefix, as the deployed S3 → EventBridge rule does ({@link
   * IngestTrigger}). Default: off (`npm start` invokes ingest itself).
   */
  ingest?: LocalIngestOptions;
  /**
   * Run batch jobs (a job per ingested object, results and a manifest in the bucket when its last
   * line has ended): the jobs table is created and handed to the functions. Default: off.
   */
  jobs?: LocalJobsSettings;
  /** Where progress lines go ("DynamoDB Local ready on … (1.2 s)"). Default: nowhere. */
  log?: (line: string) => void;
}

/** Batch jobs on the local stack ({@link LocalJobs}). */
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

/** The ingest trigger's settings on the local stack; defaults are the CDK app's. */
export interface LocalIngestOptions extends LocalIngestHandlerOptions {
  /** Default `"incoming/"`. */
  prefix?: string;
  /** Default `".jsonl"`. */
  suffix?: string;
  /** Told when an object's ingest workflow ended. Default: nothing. */
  onIngested?: (report: IngestedObjectReport) => void;
}

/** One lane of the running stack: its queue, DLQ, poller and share of the adapter. */
export interface LocalLane {
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
  dlqArn: string;
  poller: SqsEventSourcePoller;
  capacity: LaneCapacity;
}

/** The candidate of the shadow step on the local stack ({@link StartLocalStackOptions.shadowModel}). */
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
  /** Milliseconds each part took to become ready, and the whole start. */
  startupMs: Record<string, number>;
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

interface Started {
  name: string;
  stop: () => Promise<void> | void;
}

/**
 * Starts the whole pipeline on 127.0.0.1: DynamoDB Local, fauxqs (per lane a work queue + DLQ with
 * its redrive policy; the ingest bucket), the adapter as a child process on the model, the SageMaker
 * gateway in front of it, the outcomes table, and per lane an SQS event source poller running the
 * handler `createHandler` builds for it. DynamoDB Local, fauxqs and the adapter (and, with
 * `shadowModel`, the candidate's adapter, a second gateway endpoint) start side by side.
 * Batch-job lines (the ingest function) go to the bulk lane; producers pick a lane by its queue.
 *
 * A part that fails to start stops everything already started (in reverse order) and the error
 * names the part ({@link LocalPartError}: Java missing, a port taken, a model that does not load).
 *
 * @example
 * const stack = await startLocalStack({ createHandler: (context) => createDecideHandler(...) });
 * console.log(stack.connectionInfo());
 * await stack.stop();
 */
export async function startLocalStack(options: StartLocalStackOptions): Promise<LocalStack> {
  const log = options.log ?? (() => undefined);
  const region = options.region ?? "us-east-1";
  const table = options.table ?? "outcomes";
  const bucket = options.bucket ?? "ingest";
  const endpointName = options.endpointName ?? "decisions";
  const shadowEndpointName = options.shadowEndpointName ?? `${endpointName}-candidate`;
  if (options.shadowModel !== undefined && shadowEndpointName === endpointName) {
    // Checked before anything starts: the gateway would serve one model under both names.
    throw new PartStartError(
      "the SageMaker gateway",
      `the candidate's endpoint name is the live one's ("${endpointName}"): give the candidate another`,
    );
  }
  const functionTimeoutMs = options.functionTimeoutMs ?? 30_000;
  const visibilityTimeoutSeconds =
    options.visibilityTimeoutSeconds ?? Math.ceil((6 * functionTimeoutMs) / 1000);
  const ports = options.ports ?? {};
  const started: Started[] = [];
  const startupMs: Record<string, number> = {};
  const begin = performance.now();
  const timed = async <T>(
    name: string,
    start: () => Promise<T>,
    stop: (part: T) => Promise<void>,
    where: (part: T) => string | undefined = () => undefined,
  ): Promise<T> => {
    const t0 = performance.now();
    const part = await start();
    started.push({ name, stop: () => stop(part) });
    const ms = Math.round(performance.now() - t0);
    startupMs[name] = ms;
    const at = where(part);
    log(`${name} ready${at === undefined ? "" : ` on ${at}`} (${(ms / 1000).toFixed(1)} s)`);
    return part;
  };
  const stopStarted = async (): Promise<void> => {
    const failures: unknown[] = [];
    for (const part of started.splice(0).reverse()) {
      try {
        await part.stop();
      } catch (error) {
        failures.push(new LocalPartError(part.name, "did not stop cleanly", { cause: error }));
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, "some local parts did not stop cleanly");
  };

  // Objects are created only once the bucket exists, which is after the trigger is built below.
  let trigger: IngestTrigger | undefined;
  try {
    const model = await prepareStackModel(options.model);
    const shadowModel =
      options.shadowModel === undefined ? undefined : await prepareStackModel(options.shadowModel);
    const [dynamodb, fauxqs, adapter, shadowAdapter] = await allStarted([
      timed(
        "DynamoDB Local",
        () => startDynamoDbLocal({ port: ports.dynamodb, dataDir: options.dataDir, java: options.java }),
        (part) => part.stop(),
        (part) => part.endpoint,
      ),
      timed(
        "fauxqs",
        () =>
          startFauxqs({
            port: ports.fauxqs,
            region,
            ...(options.ingest === undefined
              ? {}
              : {
                  onObjectCreated: (object) => {
                    trigger?.notify(object);
                  },
                }),
          }),
        (part) => part.stop(),
        (part) => part.endpoint,
      ),
      timed(
        "the adapter",
        () =>
          startAdapterProcess({
            modelPath: model.path,
            port: ports.adapter,
            threads: options.adapterThreads,
            // A user's own GGUF rarely has a manifest; the generated one always does.
            requireManifest: model.generated,
            extraArgs: options.adapterArgs,
          }),
        (part) => part.stop(),
        (part) => part.url,
      ),
      shadowModel === undefined
        ? Promise.resolve(undefined)
        : timed(
            "the candidate's adapter",
            () =>
              startAdapterProcess({
                modelPath: shadowModel.path,
                port: ports.shadowAdapter,
                threads: options.adapterThreads,
                // As the live model: the manifest is checked when the file has one.
                requireManifest: false,
                extraArgs: options.adapterArgs,
              }),
            (part) => part.stop(),
            (part) => part.url,
          ),
    ]);
    const shadow: LocalShadowCandidate | undefined =
      shadowModel === undefined || shadowAdapter === undefined
        ? undefined
        : {
            model: shadowModel,
            endpointName: shadowEndpointName,
            adapterUrl: shadowAdapter.url,
            adapter: shadowAdapter,
          };

    const gateway = await timed(
      "the SageMaker gateway",
      () =>
        startSageMakerGateway({
          port: ports.gateway,
          endpoints: {
            [endpointName]: adapter.url,
            ...(shadow === undefined ? {} : { [shadow.endpointName]: shadow.adapterUrl }),
          },
          region,
        }),
      (part) => part.stop(),
      (part) => part.url,
    );
    const localClients = createLocalClients({
      region,
      sqs: fauxqs.endpoint,
      s3: fauxqs.endpoint,
      dynamodb: dynamodb.endpoint,
      sagemakerRuntime: gateway.url,
    });
    started.push({ name: "the SDK clients", stop: () => localClients.destroy() });
    const clients = requireAll(localClients);
    const queues = await timed(
      "the work queues, DLQs, bucket and table",
      () =>
        createResources(clients, {
          table,
          bucket,
          options,
          visibilityTimeoutSeconds,
          endpoint: fauxqs.endpoint,
        }),
      async () => undefined,
    );
    const jobs =
      options.jobs === undefined
        ? undefined
        : await timed(
            "the jobs table",
            () =>
              LocalJobs.start({
                dynamodb: clients.dynamodb,
                s3: clients.s3,
                jobsTable: options.jobs?.table ?? "jobs",
                outcomesTable: table,
                onCompleted: options.jobs?.onCompleted ?? (() => undefined),
                onError: options.jobs?.onError ?? (() => undefined),
              }),
            (part) => part.stop(),
          );
    const capacity = deriveLocalLaneCapacity();
    const contextOf = (lane: Lane): StackHandlerContext => ({
      region,
      lane,
      capacity: capacity[lane],
      ...clients,
      table,
      endpointName,
      ...(shadow === undefined ? {} : { shadowEndpointName: shadow.endpointName }),
      queueUrl: queues[lane].queueUrl,
      bucket,
      endpoints: {
        sqs: fauxqs.endpoint,
        s3: fauxqs.endpoint,
        dynamodb: dynamodb.endpoint,
        sagemakerRuntime: gateway.url,
      },
      functionTimeoutMs,
      onStop: (cleanup) => started.push({ name: "the handler", stop: cleanup }),
      ...(jobs === undefined
        ? {}
        : {
            jobs: {
              table: jobs.table,
              maxReceiveCount: queues.interactive.maxReceiveCount,
              onJobEnded: options.jobs?.onJobEnded ?? jobs.onJobEnded,
            },
          }),
    });
    // Bulk's first, interactive's last: see `createHandler`.
    const handlers = {} as Record<Lane, SqsBatchHandler>;
    for (const lane of [...LANES].reverse()) {
      handlers[lane] = await Promise.resolve()
        .then(() => options.createHandler(contextOf(lane)))
        .catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          throw new PartStartError(
            `the ${lane} lane's decide function`,
            `could not be built: ${reason}`,
            "",
            {
              cause: error,
            },
          );
        });
    }
    if (options.ingest !== undefined) {
      const { prefix, suffix, onIngested, ...handlerOptions } = options.ingest;
      // Every line of a batch job travels in the bulk lane.
      const ingestHandler = await createLocalIngestHandler(contextOf(JOB_LANE), handlerOptions);
      started.push({ name: "the ingest function", stop: () => ingestHandler.close() });
      trigger = new IngestTrigger({
        bucket,
        region,
        invoke: ingestHandler.invoke,
        ...(prefix === undefined ? {} : { prefix }),
        ...(suffix === undefined ? {} : { suffix }),
        ...(onIngested === undefined ? {} : { onIngested }),
      });
      const stopTrigger = trigger;
      started.push({ name: "the ingest trigger", stop: () => stopTrigger.stop() });
    }
    const pollers = {} as Record<Lane, SqsEventSourcePoller>;
    for (const lane of LANES) {
      pollers[lane] = await timed(
        `the ${lane} lane's event source poller`,
        async () =>
          new SqsEventSourcePoller({
            sqs: clients.sqs,
            queueUrl: queues[lane].queueUrl,
            queueArn: queues[lane].queueArn,
            region,
            handler: handlers[lane],
            functionTimeoutMs,
            functionName: `decide-${lane}`,
            ...LANE_BATCHING[lane],
            maximumConcurrency: capacity[lane].maximumConcurrency,
            ...options.poller,
            ...options.lanePollers?.[lane],
          }).start(),
        // The stack's queues go away with it: a long poll in progress need not be waited for.
        (part) => part.stop({ abandonReceive: true }),
      );
    }
    const lanes = Object.fromEntries(
      LANES.map((lane) => {
        const { maxReceiveCount: _, ...urls } = queues[lane];
        return [lane, { ...urls, poller: pollers[lane], capacity: capacity[lane] }];
      }),
    ) as Record<Lane, LocalLane>;
    const perLane = (url: (lane: LocalLane) => string): Record<Lane, string> => ({
      interactive: url(lanes.interactive),
      bulk: url(lanes.bulk),
    });
    startupMs.total = Math.round(performance.now() - begin);
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= stopStarted();
      return stopping;
    };
    const stack: LocalStack = {
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
      clients,
      dynamodb,
      fauxqs,
      adapter,
      gateway,
      poller: lanes.interactive.poller,
      ingest: trigger,
      startupMs,
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
        ...(jobs === undefined ? {} : { jobs_table: jobs.table }),
      }),
      stop,
      [Symbol.asyncDispose]: stop,
    };
    return stack;
  } catch (error) {
    await stopStarted().catch((stopError: unknown) => {
      log(
        `while stopping after a failed start: ${stopError instanceof Error ? stopError.message : stopError}`,
      );
    });
    if (error instanceof LocalPartError) throw error;
    throw new PartStartError("the local stack", error instanceof Error ? error.message : String(error), "", {
      cause: error,
    });
  }
}

async function createResources(
  clients: Required<Omit<LocalClients, "destroy">>,
  names: {
    table: string;
    bucket: string;
    options: StartLocalStackOptions;
    visibilityTimeoutSeconds: number;
    endpoint: string;
  },
): Promise<Record<Lane, WorkQueue>> {
  const queues = {} as Record<Lane, WorkQueue>;
  for (const lane of LANES) {
    queues[lane] = await createWorkQueue(clients.sqs, {
      name: `${names.options.queue ?? "work"}-${lane}`,
      maxReceiveCount: names.options.maxReceiveCount ?? 5,
      visibilityTimeoutSeconds: names.visibilityTimeoutSeconds,
      endpoint: names.endpoint,
      tags: { lane },
    });
  }
  await clients.s3.send(new CreateBucketCommand({ Bucket: names.bucket }));
  await createTableIfMissing(clients.dynamodb, names.table);
  return queues;
}

async function createTableIfMissing(dynamodb: DynamoDBClient, table: string): Promise<void> {
  try {
    await dynamodb.send(new CreateTableCommand(outcomesTableDefinition(table)));
  } catch (error) {
    // A data folder from an earlier run already holds it.
    if ((error as { name?: unknown }).name !== "ResourceInUseException") throw error;
  }
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 30 }, { TableName: table });
}

/**
 * Waits for every start, even when one fails, so each part that did start is registered (and
 * stopped by the caller) before the first failure is rethrown.
 */
async function allStarted<T extends readonly unknown[]>(
  starts: { [K in keyof T]: Promise<T[K]> },
): Promise<T> {
  const results = await Promise.allSettled(starts);
  const failed = results.find((result) => result.status === "rejected");
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

function requireAll(clients: LocalClients): Required<Omit<LocalClients, "destroy">> {
  const { sqs, s3, dynamodb, sagemakerRuntime } = clients;
  if (sqs === undefined || s3 === undefined || dynamodb === undefined || sagemakerRuntime === undefined) {
    throw new Error("a local client is missing");
  }
  return { sqs, s3, dynamodb, sagemakerRuntime };
}
