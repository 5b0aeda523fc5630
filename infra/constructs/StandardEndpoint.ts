import { Aws, CfnRule, Fn, Stack, Token } from "aws-cdk-lib";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { CfnEndpoint, CfnEndpointConfig, CfnModel } from "aws-cdk-lib/aws-sagemaker";
import { Construct } from "constructs";
import type { PinnedImage } from "../config/parsePinnedImage.js";
import { modelDataOf } from "./modelDataOf.js";
import { sageMakerExecutionRole } from "./sageMakerExecutionRole.js";
import { sageMakerNameOf } from "./sageMakerName.js";

/** A GGUF the llama.cpp image downloads from a hub repository itself when an instance starts. */
export interface StandardHubModel {
  /** `<owner>/<name>` (`SM_LLAMA_CPP_HF_REPO`). */
  repo: string;
  /** The `.gguf` file in it (`SM_LLAMA_CPP_HF_FILE`). */
  file: string;
}

/** Props of {@link StandardEndpoint}. */
export interface StandardEndpointProps {
  /** The AWS llama.cpp SageMaker image, pinned by digest (see `parsePinnedImage`). */
  image: PinnedImage;
  instanceType: string;
  /**
   * `s3://bucket/key` of a model.tar.gz holding one GGUF, or `s3://bucket/prefix/` of the unpacked
   * GGUF. Exactly one of it and {@link hub}.
   */
  modelDataUrl?: string | undefined;
  /**
   * The hub repository and file the container downloads at every instance start, instead of S3
   * model data: the model then runs without network isolation (it needs outbound HTTPS to the hub),
   * and the file is the repository's as it is then (llama.cpp's hub download follows `main`).
   */
  hub?: StandardHubModel | undefined;
  /** The KMS key of the model bucket, when it uses SSE-KMS. */
  modelKmsKeyArn?: string | undefined;
  contextSize: number;
}

/**
 * The standard text-generation endpoint (the seed's other path, for comparison): the AWS llama.cpp
 * SageMaker image serving OpenAI chat completions on the same GGUF, network-isolated — or, given
 * {@link StandardEndpointProps.hub}, on a GGUF the container downloads from a hub repository
 * (`SM_LLAMA_CPP_HF_REPO` / `SM_LLAMA_CPP_HF_FILE`), with the egress that needs. The image is
 * referenced by digest only, so a moved tag never changes what runs.
 * @throws Error when both or neither of `modelDataUrl` and `hub` are given.
 */
export class StandardEndpoint extends Construct {
  readonly endpoint: CfnEndpoint;
  /** The endpoint's name, as an attribute: `<stack>-standard` in lower case ({@link sageMakerNameOf}). */
  readonly endpointName: string;
  readonly endpointArn: string;

  constructor(scope: Construct, id: string, props: StandardEndpointProps) {
    super(scope, id);
    this.requireImageRegion(props.image);
    const { hub } = props;
    if ((hub === undefined) === (props.modelDataUrl === undefined)) {
      throw new Error(
        "StandardEndpoint: give exactly one of modelDataUrl (S3) and hub (a hub repository's file)",
      );
    }
    const modelData = props.modelDataUrl === undefined ? undefined : modelDataOf(props.modelDataUrl);
    const role = sageMakerExecutionRole(this, "ExecutionRole", {
      models: modelData === undefined ? [] : [modelData],
      modelKmsKeyArn: props.modelKmsKeyArn,
    });
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
      // Network isolation blocks every outbound call of the container; a hub download is one. With
      // no VpcConfig, SageMaker's own network gives the container its egress to the hub.
      enableNetworkIsolation: hub === undefined,
      primaryContainer: {
        image: props.image.uri,
        mode: "SingleModel",
        ...modelData?.container,
        // The image's SageMaker entrypoint turns SM_LLAMA_CPP_<FLAG> into llama-server's --<flag>.
        environment: {
          SM_LLAMA_CPP_CTX_SIZE: String(props.contextSize),
          ...(hub === undefined ? {} : { SM_LLAMA_CPP_HF_REPO: hub.repo, SM_LLAMA_CPP_HF_FILE: hub.file }),
        },
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
    this.endpoint = new CfnEndpoint(this, "Endpoint", {
      // Named in lower case, as SageMaker's ARN names it (a grant on it must match that ARN).
      endpointName: sageMakerNameOf(Stack.of(this).stackName, "standard"),
      endpointConfigName: config.attrEndpointConfigName,
      retainAllVariantProperties: true,
    });
    this.endpointName = this.endpoint.attrEndpointName;
    this.endpointArn = Stack.of(this).formatArn({
      service: "sagemaker",
      resource: "endpoint",
      resourceName: this.endpointName,
    });
  }

  /**
   * SageMaker pulls an image from ECR in the endpoint's own region only. A stack bound to a region
   * is checked at synth; an environment-agnostic one gets a CloudFormation rule, which fails the
   * deploy before any resource is created.
   */
  private requireImageRegion(image: PinnedImage): void {
    const region = Stack.of(this).region;
    if (!Token.isUnresolved(region)) {
      if (region !== image.region) {
        throw new Error(
          `standardImage is in ${image.region} but the stack deploys to ${region}: SageMaker pulls from the endpoint's region only; use the ${region} image (763104351884.dkr.ecr.${region}.amazonaws.com/llama-cpp@sha256:…)`,
        );
      }
      return;
    }
    new CfnRule(this, "ImageRegion", {
      assertions: [
        {
          assert: Fn.conditionEquals(Aws.REGION, image.region),
          assertDescription: `standardImage is in ${image.region}: deploy to ${image.region}, or use the image of the deploy region (SageMaker pulls from the endpoint's region only)`,
        },
      ],
    });
  }
}
