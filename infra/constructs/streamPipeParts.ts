import { Duration, Stack, Validations } from "aws-cdk-lib";
import { PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { CfnPipe } from "aws-cdk-lib/aws-pipes";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";

/** What a Pipe from a table's stream starts with: where undelivered records go, and its role. */
export interface StreamPipeParts {
  /** Stream records the Pipe could not deliver (14 days). */
  undelivered: Queue;
  /** The Pipe's role, allowed to read the stream; the caller grants what the Pipe does with it. */
  role: Role;
}

/**
 * The dead-letter queue (`Undelivered`) and role (`PipeRole`) of a Pipe reading the DynamoDB
 * stream `streamArn`, created in `scope` under those ids. The role may read that stream and list
 * streams (which has no resource-level permission), nothing else yet.
 */
export function streamPipeParts(
  scope: Construct,
  props: { streamArn: string; pipeName: string; roleDescription: string },
): StreamPipeParts {
  const undelivered = new Queue(scope, "Undelivered", {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  Validations.of(undelivered).acknowledge({
    id: "AwsSolutions-SQS3",
    reason: `This queue is the dead-letter target of the ${props.pipeName} Pipe.`,
  });
  const role = new Role(scope, "PipeRole", {
    assumedBy: new ServicePrincipal("pipes.amazonaws.com", {
      conditions: { StringEquals: { "aws:SourceAccount": Stack.of(scope).account } },
    }),
    description: props.roleDescription,
  });
  role.addToPolicy(
    new PolicyStatement({
      actions: ["dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator"],
      resources: [props.streamArn],
    }),
  );
  role.addToPolicy(new PolicyStatement({ actions: ["dynamodb:ListStreams"], resources: ["*"] }));
  Validations.of(role).acknowledge({
    id: "AwsSolutions-IAM5[Resource::*]",
    reason: "dynamodb:ListStreams has no resource-level permissions; it lists stream ARNs only.",
  });
  return { undelivered, role };
}

/**
 * The stream source of such a Pipe: new records only, 10 at a time, 10 attempts each before a
 * record goes to `undelivered`, filtered to `pattern`.
 */
export function streamSourceParameters(
  undelivered: Queue,
  pattern: object,
): CfnPipe.PipeSourceParametersProperty {
  return {
    dynamoDbStreamParameters: {
      startingPosition: "LATEST",
      batchSize: 10,
      maximumRetryAttempts: 10,
      deadLetterConfig: { arn: undelivered.queueArn },
    },
    filterCriteria: { filters: [{ pattern: JSON.stringify(pattern) }] },
  };
}
