import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type AwsTarget, awsClientConfig } from "../common/awsClientConfig.js";

/**
 * A DynamoDB document client for the outcomes table at a command's `--region` / `--endpoint-url`
 * (DynamoDB Local on loopback gets static credentials), with the SDK's default retries.
 * `destroy()` it when done.
 */
export function createOutcomesClient(target: AwsTarget): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(awsClientConfig(target)), {
    marshallOptions: { removeUndefinedValues: true },
  });
}
