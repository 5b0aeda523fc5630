import { DockerImageAsset, Platform } from "aws-cdk-lib/aws-ecr-assets";
import type { Role } from "aws-cdk-lib/aws-iam";
import { CfnModel } from "aws-cdk-lib/aws-sagemaker";
import type { Construct } from "constructs";
import type { ModelData } from "./modelDataOf.js";

/** Options of {@link adapterModel}. */
export interface AdapterModelOptions {
  /** The repository root: the build context of the adapter's Dockerfiles. */
  projectRoot: string;
  /** `cpu`: the CPU image (`adapter/Dockerfile`, construct `CpuImage`); `gpu`: the CUDA image (`adapter/Dockerfile.gpu`, `GpuImage`). */
  image: "cpu" | "gpu";
  /** The model's construct id. */
  modelId: string;
  /** The execution role: it is granted the image pull, and the model waits for its policy. */
  role: Role;
  modelData: ModelData;
  /** The adapter's environment (`SEMIF_*`). */
  environment: Record<string, string>;
}

/**
 * The adapter's image, built from the repository root for x86-64, and a network-isolated
 * single-model SageMaker model serving `modelData` with it: what the decision endpoint's pools
 * and the shadow step's candidate endpoint both run.
 */
export function adapterModel(scope: Construct, options: AdapterModelOptions): CfnModel {
  const { image: kind, role } = options;
  const image = new DockerImageAsset(scope, kind === "cpu" ? "CpuImage" : "GpuImage", {
    directory: options.projectRoot,
    file: kind === "cpu" ? "adapter/Dockerfile" : "adapter/Dockerfile.gpu",
    // The images install node-llama-cpp's linux-x64 binaries; SageMaker hosts are x86-64.
    platform: Platform.LINUX_AMD64,
  });
  image.repository.grantPull(role);
  const model = new CfnModel(scope, options.modelId, {
    executionRoleArn: role.roleArn,
    enableNetworkIsolation: true,
    primaryContainer: {
      image: image.imageUri,
      mode: "SingleModel",
      ...options.modelData.container,
      environment: options.environment,
    },
  });
  // The role's policy (model object, image pull) must exist before SageMaker validates the model.
  model.node.addDependency(role);
  return model;
}
