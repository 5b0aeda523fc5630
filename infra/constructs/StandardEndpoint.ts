import { Aws, Stack } from "aws-cdk-lib";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { CfnEndpoint, CfnEndpointConfig, CfnModel } from "aws-cdk-lib/aws-sagemaker";
import { Construct } from "constructs";
import type { PinnedImage } from "../config/parsePinnedImage.js";
import { parseS3Uri } from "./parseS3Uri.js";
import { sageMakerExecutionRole } from "./sageMakerExecutionRole.js";

/** Props of {@link StandardEndpoint}. */
export interface StandardEndpointProps {
  /** The AWS llama.cpp SageMaker image, pinned by digest (see `parsePinnedImage`). */
  image: PinnedImage;
  instanceType: string;
  /** `s3://bucket/key` of a model.tar.gz holding one GGUF. */
  modelDataUrl: string;
  contextSize: number;
}

/**
 * The standard text-generation endpoint (the seed's other path, for comparison): the AWS llama.cpp
 * SageMaker image serving OpenAI chat completions on the same GGUF, network-isolated. The image is
 * referenced by digest only, so a moved tag never changes what runs.
 */
export class StandardEndpoint extends Construct {
  readonly endpoint: CfnEndpoint;
  readonly endpointName: string;
  readonly endpointArn: string;

  constructor(scope: Construct, id: string, props: StandardEndpointProps) {
    super(scope, id);
    const role = sageMakerExecutionRole(this, "ExecutionRole", [parseS3Uri(props.modelDataUrl)]);
    role.addToPolicy(
      new PolicyStatement({
        actions: ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer", "ecr:BatchCheckLayerAvailability"],
        resources: [
          `arn:${Aws.PARTITION}:ecr:${props.image.region}:${props.image.account}:repository/${props.image.repository}`,
        ],
      }),
    );
    role.addToPolicy(new PolicyStatement({ actions: ["ecr:GetAuthorizationToken"], resources: ["*"] }));
    const model = new CfnModel(this, "Model", {
      executionRoleArn: role.roleArn,
      enableNetworkIsolation: true,
      primaryContainer: {
        image: props.image.uri,
        mode: "SingleModel",
        modelDataUrl: props.modelDataUrl,
        // The image's SageMaker entrypoint turns SM_LLAMA_CPP_<FLAG> into llama-server's --<flag>.
        environment: { SM_LLAMA_CPP_CTX_SIZE: String(props.contextSize) },
      },
    });
    model.node.addDependency(role);
    const config = new CfnEndpointConfig(this, "Config", {
      productionVariants: [
        {
          variantName: "AllTraffic",
          modelName: model.attrModelName,
          initialInstanceCount: 1,
          instanceType: props.instanceType,
          containerStartupHealthCheckTimeoutInSeconds: 1800,
          modelDataDownloadTimeoutInSeconds: 1800,
        },
      ],
    });
    this.endpoint = new CfnEndpoint(this, "Endpoint", { endpointConfigName: config.attrEndpointConfigName });
    this.endpointName = this.endpoint.attrEndpointName;
    this.endpointArn = Stack.of(this).formatArn({
      service: "sagemaker",
      resource: "endpoint",
      resourceName: this.endpointName,
    });
  }
}
