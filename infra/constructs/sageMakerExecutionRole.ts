import { Aws, Stack, Validations } from "aws-cdk-lib";
import { PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import type { ModelData } from "./modelDataOf.js";

/** Options of {@link sageMakerExecutionRole}. */
export interface SageMakerExecutionRoleOptions {
  /** The model data the role reads (a `.tar.gz` object, or a prefix of unpacked files); may be none. */
  models: readonly ModelData[];
  /** The KMS key the model bucket is encrypted with: the role may decrypt with it, through S3 only. */
  modelKmsKeyArn?: string | undefined;
}

/**
 * The execution role of a SageMaker model: assumable by SageMaker for this account only
 * (`aws:SourceAccount`, against the confused deputy); reads exactly the given model objects (or
 * prefixes), decrypts with the model bucket's KMS key when one is given, writes the endpoint's logs
 * and metrics, nothing else. Image pulls are granted by the caller (per repository).
 */
export function sageMakerExecutionRole(
  scope: Construct,
  id: string,
  options: SageMakerExecutionRoleOptions,
): Role {
  const role = new Role(scope, id, {
    assumedBy: new ServicePrincipal("sagemaker.amazonaws.com", {
      conditions: { StringEquals: { "aws:SourceAccount": Stack.of(scope).account } },
    }),
    description: "SageMaker model execution role: reads the model data, writes endpoint logs and metrics",
  });
  const objects = options.models.map(({ location, unpacked }) =>
    unpacked
      ? `arn:${Aws.PARTITION}:s3:::${location.bucket}/${location.key}*`
      : `arn:${Aws.PARTITION}:s3:::${location.bucket}/${location.key}`,
  );
  // A model whose container downloads its weights itself (the standard endpoint's hub path) reads none.
  if (objects.length > 0) {
    role.addToPolicy(new PolicyStatement({ actions: ["s3:GetObject"], resources: [...new Set(objects)] }));
  }
  const prefixes = options.models.filter((model) => model.unpacked);
  for (const { location } of prefixes) {
    // SageMaker lists an S3Prefix data source before copying it; the listing is limited to the prefix.
    role.addToPolicy(
      new PolicyStatement({
        actions: ["s3:ListBucket"],
        resources: [`arn:${Aws.PARTITION}:s3:::${location.bucket}`],
        conditions: { StringLike: { "s3:prefix": [`${location.key}*`] } },
      }),
    );
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${nagRendering(location.bucket)}/${nagRendering(location.key)}*]`,
      reason:
        "An unpacked model (CompressionType None) is a prefix of files that SageMaker copies; the role reads that prefix only.",
    });
  }
  if (options.modelKmsKeyArn !== undefined) {
    role.addToPolicy(
      new PolicyStatement({
        actions: ["kms:Decrypt"],
        resources: [options.modelKmsKeyArn],
        conditions: { StringEquals: { "kms:ViaService": `s3.${Aws.REGION}.amazonaws.com` } },
      }),
    );
  }
  role.addToPolicy(
    new PolicyStatement({
      actions: [
        "logs:CreateLogGroup",
        "logs:CreateLogStream",
        "logs:PutLogEvents",
        "logs:DescribeLogStreams",
      ],
      resources: [
        `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:/aws/sagemaker/Endpoints/*`,
      ],
    }),
  );
  // `AWS/` namespaces are reserved for AWS services: nobody can publish there, so none is granted.
  role.addToPolicy(
    new PolicyStatement({
      actions: ["cloudwatch:PutMetricData"],
      resources: ["*"],
      conditions: { StringLike: { "cloudwatch:namespace": ["/aws/sagemaker/Endpoints*"] } },
    }),
  );
  Validations.of(role).acknowledge(
    {
      id: "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/sagemaker/Endpoints/*]",
      reason:
        "SageMaker names the endpoint's log group after the endpoint, which CloudFormation names at deploy; the role is limited to SageMaker's endpoint log groups.",
    },
    {
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "cloudwatch:PutMetricData and ecr:GetAuthorizationToken have no resource-level permissions; metrics are limited by a namespace condition.",
    },
  );
  return role;
}

/** A string holding the account and region tokens as cdk-nag writes them in finding ids. */
function nagRendering(text: string): string {
  return text
    .replaceAll(Aws.ACCOUNT_ID, "<AWS::AccountId>")
    .replaceAll(Aws.REGION, "<AWS::Region>")
    .replaceAll(Aws.PARTITION, "<AWS::Partition>");
}
