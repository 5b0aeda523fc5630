import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { type LocalDeliveries, startLocalDeliveries } from "../delivery/startLocalDeliveries.js";
import { LocalPartError, PartStartError } from "../errors.js";
import { LocalIam, type LocalIamOptions } from "../iam/LocalIam.js";
import { stackResourceNames } from "../iam/stackResourceNames.js";
import { deployTargetOf, TemplateResolver } from "../iam/TemplateResolver.js";
import { decideFunctionOf, type TemplateFunctionName } from "../iam/templateFunctions.js";
import type { IngestTrigger } from "../ingest/IngestTrigger.js";
import { assembleLocalStack } from "./assembleLocalStack.js";
import { createLaneHandlers } from "./createLaneHandlers.js";
import { createLocalClients, type LocalClients } from "./createLocalClients.js";
import { createStackResources } from "./createStackResources.js";
import { deriveLocalLaneCapacity } from "./deriveLocalLaneCapacity.js";
import { LocalJobs } from "./LocalJobs.js";
import type { LocalStack } from "./LocalStack.js";
import type { LocalStackPlan } from "./LocalStackPlan.js";
import { laneHandlerContext } from "./laneHandlerContext.js";
import { loadStackTemplate } from "./loadStackTemplate.js";
import { readStackTemplate } from "./readStackTemplate.js";
import type { StackHandlerContext } from "./StackHandlerContext.js";
import { StartedParts } from "./StartedParts.js";
import type { StartLocalStackOptions } from "./StartLocalStackOptions.js";
import { startIngestTrigger } from "./startIngestTrigger.js";
import { startLanePollers } from "./startLanePollers.js";
import { type StackServices, startStackServices } from "./startStackServices.js";

export type { ConnectionInfo, LocalLane, LocalShadowCandidate, LocalStack } from "./LocalStack.js";
export type { LocalStackPlan } from "./LocalStackPlan.js";
export type { StackHandlerContext } from "./StackHandlerContext.js";
export type {
  LocalIngestOptions,
  LocalJobsSettings,
  LocalPollerSettings,
  StartLocalStackOptions,
} from "./StartLocalStackOptions.js";

/**
 * Starts the whole pipeline on 127.0.0.1, built from the CDK app's synthesized template (its
 * {@link LocalStackPlan}: each lane's queue and DLQ attributes and redrive policy, the event source
 * mappings' batching, the functions' timeouts, the tables' keys, indexes, TTL and stream; the
 * template is synthesized once and cached, `loadStackTemplate`): DynamoDB Local, fauxqs (per lane a work queue + DLQ with
 * its redrive policy; the ingest bucket), the adapter as a child process on the model, the SageMaker
 * gateway in front of it, the outcomes table, and per lane an SQS event source poller running the
 * handler `createHandler` builds for it. DynamoDB Local, fauxqs and the adapter (and, with
 * `shadowModel`, the candidate's adapter, a second gateway endpoint) start side by side.
 * Batch-job lines (the ingest function) go to the bulk lane; producers pick a lane by its queue.
 *
 * The steps, in order: the services ({@link startStackServices}), the SDK clients on them, the
 * queues, bucket and table ({@link createStackResources}), the jobs table ({@link LocalJobs}), each
 * lane's handler ({@link createLaneHandlers}), the ingest trigger ({@link startIngestTrigger}), each
 * lane's poller ({@link startLanePollers}). Each registers its stop in {@link StartedParts}, which
 * stops them in reverse order.
 *
 * A part that fails to start stops everything already started (in reverse order) and the error
 * names the part ({@link LocalPartError}: Java missing, a port taken, a model that does not load).
 *
 * @example
 * const stack = await startLocalStack({ env, createHandler: (context) => createDecideHandler(...) });
 * console.log(stack.connectionInfo());
 * await stack.stop();
 */
export async function startLocalStack(options: StartLocalStackOptions): Promise<LocalStack> {
  const log = options.log ?? (() => undefined);
  const parts = new StartedParts(log);
  const begin = performance.now();
  // Objects are created only once the bucket exists, which is after the trigger is built below.
  let trigger: IngestTrigger | undefined;
  try {
    const plan =
      options.plan ??
      (options.iam === undefined
        ? await parts.timed(
            "the stack's template",
            () => planFromTemplate(log),
            async () => undefined,
          )
        : readStackTemplate(options.iam.template));
    const settings = withDefaults(options, plan);
    const { region, table, bucket, endpointName, functionTimeoutMs } = settings;
    const iam = options.iam === undefined ? undefined : createStackIam(options.iam, plan, options, settings);
    const services = await startStackServices(
      {
        ...options,
        ...settings,
        // Told only with `ingest`: fauxqs then calls the trigger built below for each new object.
        ...(options.ingest === undefined
          ? {}
          : {
              onObjectCreated: (object) => {
                trigger?.notify(object);
              },
            }),
      },
      parts,
    );
    const clients = connectClients(services, region, parts);
    // With IAM enforced, each function has clients of its own, authorized as it (the stack's own
    // clients above create the resources, as CloudFormation would, and are not).
    const functionClients = (name: TemplateFunctionName) =>
      iam === undefined ? undefined : connectFunctionClients(services, region, iam, name, parts);
    const laneFunctions =
      iam === undefined
        ? undefined
        : perLaneOf((lane) => {
            const name = decideFunctionOf(lane);
            return { clients: functionClients(name) ?? clients, iam: iam.forFunction(name) };
          });
    const queues = await parts.timed(
      "the work queues, DLQs, bucket and table",
      () =>
        createStackResources(clients, {
          queue: settings.queue,
          lanes: settings.lanes,
          endpoint: services.fauxqs.endpoint,
          bucket,
          table,
          tableDefinition: plan.tables.outcomes,
        }),
      async () => undefined,
    );
    const jobs =
      options.jobs === undefined
        ? undefined
        : await startJobs(
            options.jobs,
            clients,
            { outcomesTable: table, plan, writer: functionClients("results") },
            parts,
          );
    const deliveries = await startDeliveries(options.deliveries, services, clients, { region, table }, parts);
    const capacity = deriveLocalLaneCapacity();
    const contextOf = (lane: Lane): StackHandlerContext =>
      laneHandlerContext(
        {
          region,
          capacity,
          clients,
          table,
          endpointName,
          services,
          queues,
          bucket,
          functionTimeoutMs: functionTimeoutMs[lane],
          onStop: (cleanup) => parts.add("the handler", cleanup),
          functions: laneFunctions,
          jobs:
            jobs === undefined
              ? undefined
              : {
                  table: jobs.table,
                  maxReceiveCount: queues.interactive.maxReceiveCount,
                  onJobEnded: options.jobs?.onJobEnded ?? jobs.onJobEnded,
                },
        },
        lane,
      );
    const handlers = await createLaneHandlers(options.createHandler, contextOf);
    if (options.ingest !== undefined) {
      const ingestIam = iam?.forFunction("ingest");
      trigger = await startIngestTrigger(
        options.ingest,
        // The ingest function runs on the bulk lane's names, as itself when IAM is enforced.
        ingestIam === undefined ? contextOf : (lane) => ({ ...contextOf(lane), iam: ingestIam }),
        { bucket, region, plan: plan.ingest },
        parts,
      );
    }
    const pollers = await startLanePollers(
      {
        // Lambda's event source mapping polls with the function's role.
        sqs: perLaneOf((lane) => laneFunctions?.[lane].clients.sqs ?? clients.sqs),
        region,
        queues,
        handlers,
        capacity,
        functionTimeoutMs,
        batching: settings.batching,
        poller: options.poller,
        lanePollers: options.lanePollers,
      },
      parts,
    );
    parts.startupMs.total = Math.round(performance.now() - begin);
    return assembleLocalStack({
      region,
      table,
      bucket,
      endpointName,
      services,
      clients,
      queues,
      pollers,
      capacity,
      trigger,
      jobsTable: jobs?.table,
      deliveries,
      iam,
      startupMs: parts.startupMs,
      plan,
      stop: () => parts.stop(),
    });
  } catch (error) {
    await parts.stop().catch((stopError: unknown) => {
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

const perLaneOf = <T>(value: (lane: Lane) => T): Record<Lane, T> =>
  Object.fromEntries(LANES.map((lane) => [lane, value(lane)])) as Record<Lane, T>;

/** IAM enforcement on the stack's names: each local name mapped to the template's resource. */
function createStackIam(
  options: LocalIamOptions,
  plan: LocalStackPlan,
  given: StartLocalStackOptions,
  settings: {
    table: string;
    queue: string;
    bucket: string;
    endpointName: string;
    shadowEndpointName: string;
  },
): LocalIam {
  const resolver = new TemplateResolver(options.template, options.target ?? deployTargetOf("Decisions"));
  return new LocalIam(
    options,
    stackResourceNames(resolver, plan, {
      table: settings.table,
      jobsTable: given.jobs?.table ?? "jobs",
      queues: perLaneOf((lane) => ({
        queue: `${settings.queue}-${lane}`,
        deadLetterQueue: `${settings.queue}-${lane}-dlq`,
      })),
      bucket: settings.bucket,
      endpointName: settings.endpointName,
      ...(given.shadowModel === undefined ? {} : { shadowEndpointName: settings.shadowEndpointName }),
    }),
  );
}

/** The plan read from the CDK app's default template, synthesized or read from the cache. */
async function planFromTemplate(log: (line: string) => void): Promise<LocalStackPlan> {
  return readStackTemplate(await loadStackTemplate({ log }));
}

/**
 * The options' defaults, applied in one place: names of the stack's own, settings from the plan
 * (the template's) unless the caller gives them.
 * @throws {PartStartError} when the candidate's endpoint name is the live one's (checked before anything starts).
 */
function withDefaults(options: StartLocalStackOptions, plan: LocalStackPlan) {
  const endpointName = options.endpointName ?? "decisions";
  const shadowEndpointName = options.shadowEndpointName ?? `${endpointName}-candidate`;
  if (options.shadowModel !== undefined && shadowEndpointName === endpointName) {
    // Checked before anything starts: the gateway would serve one model under both names.
    throw new PartStartError(
      "the SageMaker gateway",
      `the candidate's endpoint name is the live one's ("${endpointName}"): give the candidate another`,
    );
  }
  const functionTimeoutMs = perLaneOf(
    (lane) => options.functionTimeoutMs ?? plan.lanes[lane].function.timeoutSeconds * 1000,
  );
  return {
    log: options.log ?? (() => undefined),
    region: options.region ?? "us-east-1",
    table: options.table ?? "outcomes",
    bucket: options.bucket ?? "ingest",
    queue: options.queue ?? "work",
    endpointName,
    shadowEndpointName,
    functionTimeoutMs,
    lanes: perLaneOf((lane) => {
      const { queue, deadLetterQueue } = plan.lanes[lane];
      return {
        maxReceiveCount: options.maxReceiveCount ?? queue.redrive?.maxReceiveCount ?? 5,
        // A caller that shortens the function's timeout keeps the template's ratio (6 × timeout + window).
        visibilityTimeoutSeconds:
          options.visibilityTimeoutSeconds ??
          (options.functionTimeoutMs === undefined
            ? queue.visibilityTimeoutSeconds
            : Math.ceil((6 * options.functionTimeoutMs) / 1000)),
        messageRetentionSeconds: queue.messageRetentionSeconds,
        maximumMessageBytes: queue.maximumMessageBytes,
        deadLetterRetentionSeconds: deadLetterQueue.messageRetentionSeconds,
      };
    }),
    batching: perLaneOf((lane) => ({
      batchSize: plan.lanes[lane].eventSource.batchSize,
      maximumBatchingWindowMs: plan.lanes[lane].eventSource.maximumBatchingWindowSeconds * 1000,
      reportBatchItemFailures: plan.lanes[lane].eventSource.reportBatchItemFailures,
    })),
    ports: options.ports ?? {},
  };
}

/** SDK clients on the started services, destroyed when the stack stops. */
function connectClients(
  services: StackServices,
  region: string,
  parts: StartedParts,
): Required<Omit<LocalClients, "destroy">> {
  const localClients = createLocalClients({
    region,
    sqs: services.fauxqs.endpoint,
    s3: services.fauxqs.endpoint,
    dynamodb: services.dynamodb.endpoint,
    sagemakerRuntime: services.gateway.url,
  });
  parts.add("the SDK clients", () => localClients.destroy());
  const { sqs, s3, dynamodb, sagemakerRuntime } = localClients;
  if (sqs === undefined || s3 === undefined || dynamodb === undefined || sagemakerRuntime === undefined) {
    throw new Error("a local client is missing");
  }
  return { sqs, s3, dynamodb, sagemakerRuntime };
}

/** A function's own SDK clients on the started services, authorized as it, destroyed when the stack stops. */
function connectFunctionClients(
  services: StackServices,
  region: string,
  iam: LocalIam,
  name: TemplateFunctionName,
  parts: StartedParts,
): Required<Omit<LocalClients, "destroy">> {
  const own = connectClients(services, region, parts);
  iam.authorize(own.sqs, name);
  iam.authorize(own.s3, name);
  iam.authorize(own.dynamodb, name);
  iam.authorize(own.sagemakerRuntime, name);
  return own;
}

/** Outcome deliveries (`local/delivery`), when asked for: started before the pollers, so none is missed. */
function startDeliveries(
  options: StartLocalStackOptions["deliveries"],
  services: StackServices,
  clients: Required<Omit<LocalClients, "destroy">>,
  names: { region: string; table: string },
  parts: StartedParts,
): Promise<LocalDeliveries | undefined> {
  if (options === undefined) return Promise.resolve(undefined);
  const stack = {
    ...names,
    dynamodbEndpoint: services.dynamodb.endpoint,
    sqsEndpoint: services.fauxqs.endpoint,
    clients,
  };
  return parts.timed(
    "deliveries",
    () => startLocalDeliveries(stack, options),
    (part) => part.stop(),
  );
}

/** The jobs table and the results writer ({@link LocalJobs}), when the stack runs batch jobs. */
function startJobs(
  settings: NonNullable<StartLocalStackOptions["jobs"]>,
  clients: Required<Omit<LocalClients, "destroy">>,
  {
    outcomesTable,
    plan,
    writer,
  }: {
    outcomesTable: string;
    plan: LocalStackPlan;
    /** The results function's own clients, when IAM is enforced. */
    writer: Required<Omit<LocalClients, "destroy">> | undefined;
  },
  parts: StartedParts,
): Promise<LocalJobs> {
  return parts.timed(
    "the jobs table",
    () =>
      LocalJobs.start({
        dynamodb: clients.dynamodb,
        s3: clients.s3,
        jobsTable: settings.table ?? "jobs",
        jobsTableDefinition: plan.tables.jobs,
        outcomesTable,
        onCompleted: settings.onCompleted ?? (() => undefined),
        onError: settings.onError ?? (() => undefined),
        ...(writer === undefined ? {} : { writerClients: { dynamodb: writer.dynamodb, s3: writer.s3 } }),
      }),
    (part) => part.stop(),
  );
}
