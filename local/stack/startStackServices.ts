import type { CreatedObject } from "../ingest/readObjectCreated.js";
import { type AdapterProcess, startAdapterProcess } from "../services/startAdapterProcess.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../services/startDynamoDbLocal.js";
import { type Fauxqs, startFauxqs } from "../services/startFauxqs.js";
import { type SageMakerGateway, startSageMakerGateway } from "../services/startSageMakerGateway.js";
import type { LocalShadowCandidate } from "./LocalStack.js";
import { prepareStackModel, type StackModel } from "./prepareStackModel.js";
import type { StartedParts } from "./StartedParts.js";
import type { StartLocalStackOptions } from "./StartLocalStackOptions.js";

/** What {@link startStackServices} needs: the caller's options and the defaults the stack applied. */
export interface StackServicesSettings
  extends Pick<
    StartLocalStackOptions,
    "model" | "shadowModel" | "dataDir" | "java" | "adapterThreads" | "adapterArgs" | "env"
  > {
  region: string;
  endpointName: string;
  /** The candidate's endpoint name (used only with `shadowModel`). */
  shadowEndpointName: string;
  ports: NonNullable<StartLocalStackOptions["ports"]>;
  /** Told of every object created in fauxqs' S3 (the ingest trigger). Absent: no hook. */
  onObjectCreated?: (object: CreatedObject) => void;
}

/** The services of a local stack, started and ready. */
export interface StackServices {
  model: StackModel;
  dynamodb: DynamoDbLocal;
  fauxqs: Fauxqs;
  adapter: AdapterProcess;
  /** The candidate's adapter and endpoint, when `shadowModel` was given. */
  shadow: LocalShadowCandidate | undefined;
  gateway: SageMakerGateway;
}

/**
 * Starts the services of the stack on 127.0.0.1: DynamoDB Local, fauxqs and the adapter (and, with
 * `shadowModel`, the candidate's adapter) side by side, then the SageMaker gateway in front of the
 * adapters. Each part is registered in `parts` as soon as it is up, so a failure of another stops it.
 *
 * @throws the first failure (a `LocalPartError` names the part), once every start has ended.
 */
export async function startStackServices(
  settings: StackServicesSettings,
  parts: StartedParts,
): Promise<StackServices> {
  const { ports, region } = settings;
  const model = await prepareStackModel(settings.model);
  const shadowModel =
    settings.shadowModel === undefined ? undefined : await prepareStackModel(settings.shadowModel);
  const [dynamodb, fauxqs, adapter, shadowAdapter] = await allStarted([
    parts.timed(
      "DynamoDB Local",
      () =>
        startDynamoDbLocal({
          port: ports.dynamodb,
          dataDir: settings.dataDir,
          java: settings.java,
          env: settings.env,
        }),
      (part) => part.stop(),
      (part) => part.endpoint,
    ),
    parts.timed(
      "fauxqs",
      () =>
        startFauxqs({
          port: ports.fauxqs,
          region,
          ...(settings.onObjectCreated === undefined ? {} : { onObjectCreated: settings.onObjectCreated }),
        }),
      (part) => part.stop(),
      (part) => part.endpoint,
    ),
    parts.timed(
      "the adapter",
      () =>
        startAdapterProcess({
          modelPath: model.path,
          port: ports.adapter,
          threads: settings.adapterThreads,
          // A user's own GGUF rarely has a manifest; the generated one always does.
          requireManifest: model.generated,
          extraArgs: settings.adapterArgs,
          env: settings.env,
        }),
      (part) => part.stop(),
      (part) => part.url,
    ),
    shadowModel === undefined
      ? Promise.resolve(undefined)
      : parts.timed(
          "the candidate's adapter",
          () =>
            startAdapterProcess({
              modelPath: shadowModel.path,
              port: ports.shadowAdapter,
              threads: settings.adapterThreads,
              // As the live model: the manifest is checked when the file has one.
              requireManifest: false,
              extraArgs: settings.adapterArgs,
              env: settings.env,
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
          endpointName: settings.shadowEndpointName,
          adapterUrl: shadowAdapter.url,
          adapter: shadowAdapter,
        };
  const gateway = await parts.timed(
    "the SageMaker gateway",
    () =>
      startSageMakerGateway({
        port: ports.gateway,
        endpoints: {
          [settings.endpointName]: adapter.url,
          ...(shadow === undefined ? {} : { [shadow.endpointName]: shadow.adapterUrl }),
        },
        region,
      }),
    (part) => part.stop(),
    (part) => part.url,
  );
  return { model, dynamodb, fauxqs, adapter, shadow, gateway };
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
