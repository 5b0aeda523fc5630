import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { SQSClient } from "@aws-sdk/client-sqs";

/** The endpoints of the local parts, each `http://127.0.0.1:<port>`. */
export interface LocalEndpoints {
  region: string;
  sqs?: string;
  s3?: string;
  dynamodb?: string;
  sagemakerRuntime?: string;
}

/** SDK clients configured for the local parts (only those whose endpoint is given). */
export interface LocalClients {
  sqs?: SQSClient;
  s3?: S3Client;
  dynamodb?: DynamoDBClient;
  sagemakerRuntime?: SageMakerRuntimeClient;
  /** Destroys every client (closes their sockets). */
  destroy(): void;
}

/**
 * Static credentials the local parts accept (they check none). Given explicitly so the SDK never
 * walks its credential chain (profile files, the instance metadata service) on a developer machine.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" } as const;

/**
 * Real AWS SDK clients for the local parts: SQS with `useQueueUrlAsEndpoint: false` (fauxqs' queue
 * URLs name a host that does not resolve here), S3 path-style (`forcePathStyle`), static local
 * credentials, and the SDK's default retries.
 */
export function createLocalClients(endpoints: LocalEndpoints): LocalClients {
  const common = { region: endpoints.region, credentials: LOCAL_CREDENTIALS };
  const sqs =
    endpoints.sqs === undefined
      ? undefined
      : new SQSClient({ ...common, endpoint: endpoints.sqs, useQueueUrlAsEndpoint: false });
  const s3 =
    endpoints.s3 === undefined
      ? undefined
      : new S3Client({ ...common, endpoint: endpoints.s3, forcePathStyle: true });
  const dynamodb =
    endpoints.dynamodb === undefined
      ? undefined
      : new DynamoDBClient({ ...common, endpoint: endpoints.dynamodb });
  const sagemakerRuntime =
    endpoints.sagemakerRuntime === undefined
      ? undefined
      : new SageMakerRuntimeClient({ ...common, endpoint: endpoints.sagemakerRuntime });
  return {
    sqs,
    s3,
    dynamodb,
    sagemakerRuntime,
    destroy() {
      sqs?.destroy();
      s3?.destroy();
      dynamodb?.destroy();
      sagemakerRuntime?.destroy();
    },
  };
}
