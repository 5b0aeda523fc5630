import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { Lane } from "../../contract/lanes/lanes.js";
import type { AuthorizableClient, FunctionIam } from "../iam/LocalIam.js";
import type { LaneCapacity } from "./deriveLocalLaneCapacity.js";

/**
 * What a handler factory gets from the stack: SDK clients on the local parts and the names. The
 * stack builds one handler per lane; `lane`, `queueUrl` and `capacity` are that lane's.
 */
export interface StackHandlerContext {
  region: string;
  /** The lane whose queue the handler drains (the decide function's `LANE`). */
  lane: Lane;
  /**
   * The lane's share of the adapter: the concurrency its poller runs with and the endpoint calls
   * per invocation (`MAX_CONCURRENT_GROUPS`) that keep it within that share.
   */
  capacity: LaneCapacity;
  sqs: SQSClient;
  s3: S3Client;
  dynamodb: DynamoDBClient;
  sagemakerRuntime: SageMakerRuntimeClient;
  table: string;
  endpointName: string;
  /**
   * The shadow step's candidate endpoint (the decide function's `SHADOW_ENDPOINT_NAME`), when the
   * stack serves a candidate model (`shadowModel`). Absent: none.
   */
  shadowEndpointName?: string;
  /** The lane's work queue (a handler re-queues busy records to the queue they came from). */
  queueUrl: string;
  /** The stack's bucket (ingest; the decide function keeps review states under a prefix of it). Absent: no archive. */
  bucket?: string;
  /** The endpoint URLs, as `AWS_ENDPOINT_URL_<SERVICE>` would carry them. */
  endpoints: { sqs: string; s3: string; dynamodb: string; sagemakerRuntime: string };
  /** The function timeout the poller applies (`context.getRemainingTimeInMillis()`). */
  functionTimeoutMs: number;
  /**
   * The function's role, when the stack enforces IAM (`StartLocalStackOptions.iam`): `sqs`, `s3`,
   * `dynamodb` and `sagemakerRuntime` above are then the function's own clients, authorized as it,
   * and a client the handler builds for itself is authorized with `iam.authorize(client)`
   * ({@link withRole}). Absent: IAM is not enforced.
   */
  iam?: FunctionIam;
  /** Registers a cleanup (closing the handler's own clients) run when the stack stops. */
  onStop(cleanup: () => Promise<void> | void): void;
  /**
   * Batch jobs, when the stack runs them: the jobs table (`JOBS_TABLE`), the receive count at which
   * a record is dead-lettered (`MAX_RECEIVE_COUNT`), and the call that starts a job's results.
   */
  jobs?: { table: string; maxReceiveCount: number; onJobEnded: (jobId: string) => Promise<void> };
}

/**
 * A client the function builds for itself, authorized as the function when the stack enforces IAM
 * (the client itself otherwise).
 */
export function withRole<C extends AuthorizableClient>(context: { iam?: FunctionIam }, client: C): C {
  return context.iam === undefined ? client : context.iam.authorize(client);
}
