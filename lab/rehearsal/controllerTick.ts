/**
 * The capacity controller's tick in the live rehearsal: the deployed controller's own code (its
 * configuration read from the template's environment, its readers and setters) run once, each of
 * its calls authorized against its role like every other function's. SQS is the local stack's
 * fauxqs; SageMaker's control plane and Lambda's event source mappings cannot run here, so their
 * answers are modelled from the template, as AWS documents them:
 * - DescribeEndpoint: `InService`, each production variant of the endpoint config at its
 *   `InitialInstanceCount` (API_DescribeEndpoint: `ProductionVariants[].CurrentInstanceCount`,
 *   `DesiredInstanceCount`);
 * - DescribeInferenceComponent (`layout=lanes-from-zero`): `InService`, `RuntimeConfig` at the
 *   component's `CopyCount` (API_InferenceComponentRuntimeConfigSummary);
 * - GetEventSourceMapping / UpdateEventSourceMapping: the mapping's `ScalingConfig` as the template
 *   states it, then as the controller sets it (API_UpdateEventSourceMapping). The local pollers keep
 *   the local adapter's sizing (docs/deploying.md); what the controller set is returned for the report.
 * The answers are given by a middleware of the build step, after the initialize step's
 * authorization: a refused call never reaches the model.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { LambdaClient } from "@aws-sdk/client-lambda";
import { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { SQSClient } from "@aws-sdk/client-sqs";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { createCapacityControllerDeps } from "../../functions/capacityController/createCapacityControllerDeps.js";
import { readCapacityControllerConfig } from "../../functions/capacityController/readCapacityControllerConfig.js";
import type { AuthorizableClient, LocalIam } from "../../local/iam/LocalIam.js";
import type { TemplateResolver } from "../../local/iam/TemplateResolver.js";
import { LOCAL_CREDENTIALS } from "../../local/stack/createLocalClients.js";
import type { LocalStack } from "../../local/stack/LocalStack.js";
import { ModelledServiceError } from "./errors.js";

/** What one tick read and set. */
export interface ControllerTick {
  /** Each lane's event source concurrency as the controller left it in the model. */
  concurrency: Record<Lane, number | undefined>;
  /** The check's failed steps (`step: reason`). */
  failures: string[];
}

/**
 * Runs the capacity controller's check once against the local stack, with `environment` the
 * controller's variables as the template states them (table names made local).
 */
export async function runControllerTick(
  stack: LocalStack,
  iam: LocalIam,
  environment: Readonly<Record<string, string>>,
): Promise<ControllerTick> {
  const resolver = iam.names.resolver;
  const env: Record<string, string> = { ...environment };
  // The deployed queues' URLs name AWS's hosts; the same lanes' queues here are fauxqs's.
  for (const lane of LANES) env[`${lane.toUpperCase()}_QUEUE_URL`] = stack.lanes[lane].queueUrl;
  const mappings = modelledMappings(resolver);
  const connection = { region: stack.region, credentials: LOCAL_CREDENTIALS };
  const sagemaker = modelled(
    iam.authorize(
      new SageMakerClient({ ...connection, endpoint: "http://127.0.0.1:9" }),
      "capacityController",
    ),
    (command, input) => sageMakerAnswer(resolver, command, input),
  );
  const lambda = modelled(
    iam.authorize(new LambdaClient({ ...connection, endpoint: "http://127.0.0.1:9" }), "capacityController"),
    (command, input) => lambdaAnswer(mappings, command, input),
  );
  const sqs = iam.authorize(
    new SQSClient({ ...connection, endpoint: stack.sqsEndpoint, useQueueUrlAsEndpoint: false }),
    "capacityController",
  );
  const logger = new Logger({ logLevel: "SILENT" });
  try {
    const config = readCapacityControllerConfig(env);
    const deps = createCapacityControllerDeps(config, {
      sagemaker,
      lambda,
      sqs,
      logger,
      metrics: new Metrics({ namespace: "DecisionPipelineLocal", logger }),
    });
    const check = await deps.controller.check();
    const byUuid = new Map([...mappings].map(([uuid, mapping]) => [uuid, mapping.maximumConcurrency]));
    return {
      concurrency: Object.fromEntries(
        LANES.map((lane) => [lane, byUuid.get(config.eventSources[lane])]),
      ) as Record<Lane, number | undefined>,
      failures: check.failures.map(
        (failure) =>
          `${failure.step}: ${failure.error instanceof Error ? failure.error.message : String(failure.error)}`,
      ),
    };
  } finally {
    for (const client of [sagemaker, lambda, sqs]) client.destroy();
  }
}

/** The SDK's own client, its build step short-circuited with `answer`'s output. */
function modelled<C extends AuthorizableClient>(
  client: C,
  answer: (command: string, input: Record<string, unknown>) => unknown,
): C {
  (client.middlewareStack as { add(middleware: unknown, options: unknown): void }).add(
    (_next: unknown, context: { commandName?: string }) => async (args: { input: unknown }) => ({
      output: {
        $metadata: { httpStatusCode: 200 },
        ...(answer(context.commandName ?? "", args.input as Record<string, unknown>) as object),
      },
      response: {},
    }),
    { step: "build", name: "rehearsalModelledService" },
  );
  return client;
}

/** The template's event source mappings, by the UUID the resolver gives each. */
function modelledMappings(
  resolver: TemplateResolver,
): Map<string, { maximumConcurrency: number | undefined }> {
  return new Map(
    resolver.logicalIdsOf("AWS::Lambda::EventSourceMapping").map((id) => {
      const scaling = resolver.resource(id).Properties?.ScalingConfig as
        | { MaximumConcurrency?: unknown }
        | undefined;
      const value = scaling?.MaximumConcurrency;
      return [
        resolver.ref(id),
        { maximumConcurrency: typeof value === "number" ? value : undefined },
      ] as const;
    }),
  );
}

function lambdaAnswer(
  mappings: Map<string, { maximumConcurrency: number | undefined }>,
  command: string,
  input: Record<string, unknown>,
): unknown {
  const uuid = String(input.UUID);
  const mapping = mappings.get(uuid);
  if (mapping === undefined)
    throw new ModelledServiceError(`no event source mapping ${uuid} in the template`);
  if (command === "UpdateEventSourceMappingCommand") {
    const scaling = input.ScalingConfig as { MaximumConcurrency?: number } | undefined;
    mapping.maximumConcurrency = scaling?.MaximumConcurrency;
  } else if (command !== "GetEventSourceMappingCommand")
    throw new ModelledServiceError(`the rehearsal models no Lambda ${command}`);
  return {
    UUID: uuid,
    State: "Enabled",
    ...(mapping.maximumConcurrency === undefined
      ? {}
      : { ScalingConfig: { MaximumConcurrency: mapping.maximumConcurrency } }),
  };
}

function sageMakerAnswer(
  resolver: TemplateResolver,
  command: string,
  input: Record<string, unknown>,
): unknown {
  if (command === "DescribeEndpointCommand") {
    const endpoint = resolver
      .logicalIdsOf("AWS::SageMaker::Endpoint")
      .find((id) => resolver.physicalName(id) === input.EndpointName);
    if (endpoint === undefined)
      throw new ModelledServiceError(`no endpoint ${String(input.EndpointName)} in the template`);
    const configId = (
      resolver.resource(endpoint).Properties?.EndpointConfigName as { "Fn::GetAtt"?: string[] } | undefined
    )?.["Fn::GetAtt"]?.[0];
    const variants =
      configId === undefined
        ? []
        : ((resolver.resource(configId).Properties?.ProductionVariants ?? []) as {
            VariantName?: string;
            InitialInstanceCount?: number;
          }[]);
    return {
      EndpointName: input.EndpointName,
      EndpointStatus: "InService",
      ProductionVariants: variants.map((variant) => ({
        VariantName: variant.VariantName,
        CurrentInstanceCount: variant.InitialInstanceCount ?? 0,
        DesiredInstanceCount: variant.InitialInstanceCount ?? 0,
      })),
    };
  }
  if (command === "DescribeInferenceComponentCommand") {
    const component = resolver
      .logicalIdsOf("AWS::SageMaker::InferenceComponent")
      .find((id) => resolver.physicalName(id) === input.InferenceComponentName);
    if (component === undefined)
      throw new ModelledServiceError(
        `no inference component ${String(input.InferenceComponentName)} in the template`,
      );
    const copies = (
      resolver.resource(component).Properties?.RuntimeConfig as { CopyCount?: number } | undefined
    )?.CopyCount;
    return {
      InferenceComponentName: input.InferenceComponentName,
      InferenceComponentStatus: "InService",
      RuntimeConfig: { CurrentCopyCount: copies ?? 0, DesiredCopyCount: copies ?? 0 },
    };
  }
  throw new ModelledServiceError(`the rehearsal models no SageMaker ${command}`);
}
