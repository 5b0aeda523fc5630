import { Aws, Validations } from "aws-cdk-lib";
import { PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import type { S3Location } from "./parseS3Uri.js";

/**
 * The execution role of a SageMaker model: reads exactly the given model objects, writes the
 * endpoint's logs and metrics, nothing else. Image pulls are granted by the caller (per repository).
 */
export function sageMakerExecutionRole(scope: Construct, id: string, models: readonly S3Location[]): Role {
  const role = new Role(scope, id, {
    assumedBy: new ServicePrincipal("sagemaker.amazonaws.com"),
    description: "SageMaker model execution role: reads the model.tar.gz, writes endpoint logs and metrics",
  });
  role.addToPolicy(
    new PolicyStatement({
      actions: ["s3:GetObject"],
      resources: [
        ...new Set(models.map((model) => `arn:${Aws.PARTITION}:s3:::${model.bucket}/${model.key}`)),
      ],
    }),
  );
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
  role.addToPolicy(
    new PolicyStatement({
      actions: ["cloudwatch:PutMetricData"],
      resources: ["*"],
      conditions: { StringLike: { "cloudwatch:namespace": ["/aws/sagemaker/Endpoints*", "AWS/SageMaker"] } },
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
