import { type Duration, Stack } from "aws-cdk-lib";
import { CfnEndpoint, CfnEndpointConfig } from "aws-cdk-lib/aws-sagemaker";
import { Construct } from "constructs";
import { SERVER_SETTING_ENTRIES, variableOf } from "../../contract/index.js";
import { adapterModel } from "./adapterModel.js";
import { modelDataOf } from "./modelDataOf.js";
import { sageMakerExecutionRole } from "./sageMakerExecutionRole.js";
import { sageMakerNameOf } from "./sageMakerName.js";

/** Props of {@link ShadowEndpoint}. */
export interface ShadowEndpointProps {
  /** The repository root: the build context of the adapter's Dockerfiles (the live endpoint's images). */
  projectRoot: string;
  /** `cpu`: the CPU image (`adapter/Dockerfile`); `gpu`: the CUDA image (`adapter/Dockerfile.gpu`). */
  image: "cpu" | "gpu";
  /** The one instance's type. */
  instanceType: string;
  /** `s3://bucket/key` of the candidate's model.tar.gz, or `s3://bucket/prefix/` of its unpacked files. */
  modelDataUrl: string;
  /** The KMS key of the model bucket, when it uses SSE-KMS. */
  modelKmsKeyArn?: string | undefined;
  contextSize: number;
  /** `SEMIF_GPU_LAYERS` with the GPU image. */
  gpuLayers: number;
  /** `SEMIF_THREADS`, or `auto` to leave the adapter's default. */
  cpuThreads: number | "auto";
  /** Requests the instance admits at once: 1 running plus the rest waiting. */
  requestsPerInstance: number;
  /** `SEMIF_REQUEST_TIMEOUT_MS`. */
  requestTimeout: Duration;
  containerStartupTimeout: Duration;
  modelDownloadTimeout: Duration;
}

/** The candidate endpoint's one variant. */
export const SHADOW_VARIANT_NAME = "AllTraffic";

/**
 * The candidate endpoint of the shadow step (docs/changing-models.md): the adapter image of the
 * live endpoint serving another model (another size, quantization or build) on one instance,
 * network-isolated, asked only by the decide functions' shadow step for the sampled share of
 * items a policy's `shadow` section names, in the bulk lane. It decides nothing: no scaling, no
 * alarms that roll anything back, no interactive reserve (every call it gets is a bulk call). The
 * stack creates it only with the `shadowModelDataUrl` knob, so that without one it costs nothing.
 */
export class ShadowEndpoint extends Construct {
  readonly endpoint: CfnEndpoint;
  /** The endpoint's name, as an attribute: `<stack>-shadow` in lower case ({@link sageMakerNameOf}). */
  readonly endpointName: string;
  /** `arn:…:endpoint/<name>`: what the decide functions may invoke besides the live endpoint. */
  readonly endpointArn: string;

  constructor(scope: Construct, id: string, props: ShadowEndpointProps) {
    super(scope, id);
    const modelData = modelDataOf(props.modelDataUrl);
    const role = sageMakerExecutionRole(this, "ExecutionRole", {
      models: [modelData],
      modelKmsKeyArn: props.modelKmsKeyArn,
    });
    // Same directory and Dockerfile as the live endpoint's image: one asset, built once.
    const adapter = SERVER_SETTING_ENTRIES;
    const model = adapterModel(this, {
      projectRoot: props.projectRoot,
      image: props.image,
      modelId: "Model",
      role,
      modelData,
      environment: {
        [variableOf(adapter.gpuLayers)]: props.image === "gpu" ? String(props.gpuLayers) : "0",
        [variableOf(adapter.contextSize)]: String(props.contextSize),
        [variableOf(adapter.maxInFlight)]: "1",
        [variableOf(adapter.queueDepth)]: String(props.requestsPerInstance - 1),
        // Every call of the shadow step is a bulk call: no place is kept for interactive ones.
        [variableOf(adapter.interactiveReserve)]: "0",
        [variableOf(adapter.requestTimeoutMs)]: String(props.requestTimeout.toMilliseconds()),
        ...(props.cpuThreads === "auto" ? {} : { [variableOf(adapter.threads)]: String(props.cpuThreads) }),
      },
    });
    const config = new CfnEndpointConfig(this, "Config", {
      productionVariants: [
        {
          variantName: SHADOW_VARIANT_NAME,
          modelName: model.attrModelName,
          initialInstanceCount: 1,
          instanceType: props.instanceType,
          containerStartupHealthCheckTimeoutInSeconds: props.containerStartupTimeout.toSeconds(),
          modelDataDownloadTimeoutInSeconds: props.modelDownloadTimeout.toSeconds(),
        },
      ],
    });
    this.endpoint = new CfnEndpoint(this, "Endpoint", {
      // Named in lower case, as SageMaker's ARN names it: the decide functions' grant must match it.
      endpointName: sageMakerNameOf(Stack.of(this).stackName, "shadow"),
      endpointConfigName: config.attrEndpointConfigName,
    });
    this.endpointName = this.endpoint.attrEndpointName;
    this.endpointArn = Stack.of(this).formatArn({
      service: "sagemaker",
      resource: "endpoint",
      resourceName: this.endpointName,
    });
  }
}
