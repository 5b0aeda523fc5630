import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { laneAttributeOf } from "../../contract/index.js";
import type { Clock } from "../../core/common/Clock.js";
import { RetryBudget } from "../../core/common/RetryBudget.js";
import { RetryPolicy } from "../../core/common/RetryPolicy.js";
import { createSageMakerRuntimeClient, EndpointClient } from "../../core/endpoint/index.js";
import { FailureRecordStore } from "../../core/failures/index.js";
import {
  AdaptiveConcurrencyLimiter,
  BusyRecordRequeuer,
  CallLatencyEstimate,
} from "../../core/flow/index.js";
import { outcomeWritingOf } from "../../core/jobs/outcomeWritingOf.js";
import { ShadowRecordStore } from "../../core/outcomes/index.js";
import { ShadowRunner } from "../../core/pipeline/index.js";
import { loadPolicies, type PolicySet } from "../../core/policy/index.js";
import { DEFAULT_STATE_PREFIX, S3StateArchive } from "../../core/states/index.js";
import { DecideTelemetry } from "./DecideTelemetry.js";
import type { DecideDeps } from "./decideBatch.js";
import type { DecideConfig } from "./readDecideConfig.js";

/** Parts {@link createDecideDeps} builds unless given (tests and the local stack pass local ones). */
export interface DecideParts {
  /** Default: `createSageMakerRuntimeClient()` (SDK retries off; standard SDK configuration). */
  sagemakerRuntime?: SageMakerRuntimeClient;
  /** Default: a `DynamoDBClient` with `maxAttempts: 1` (standard SDK configuration). */
  dynamodb?: DynamoDBClient;
  /** Default: `loadPolicies(config.policyDir)`. */
  policies?: PolicySet;
  /** Default: a Powertools `Logger` (configured by `POWERTOOLS_*`). */
  logger?: Logger;
  /** Default: a Powertools `Metrics` (configured by `POWERTOOLS_*`). */
  metrics?: Metrics;
  /**
   * An SQS client to re-queue busy records to their own queue with (the Lambda entry passes one
   * on the standard SDK configuration). Default: none — no re-queue, every failure goes back to SQS.
   */
  sqs?: SQSClient;
  /** Default: the system clock. */
  clock?: Clock;
  /** Called when a job's last line has ended (see `JobLedgerOptions.onEnded`). Default none. */
  onJobEnded?: (jobId: string) => Promise<void>;
  /**
   * The S3 client of the state archive, when `STATE_ARCHIVE_BUCKET` is set. Default: an `S3Client`
   * with the SDK's standard retries (a state put has no retry policy of its own; a failed one
   * gives the group's items back).
   */
  s3?: S3Client;
}

/**
 * Builds the decide function's dependencies from its configuration: the policies, the clients
 * (SDK retries off), and the flow control of this function instance (core/flow): the
 * endpoint's calls under an adaptive concurrency limit (up to `MAX_CONCURRENT_GROUPS`), a
 * retry budget and a latency estimate (no call starts that the deadline would abort), and a requeuer that sends records failed only for capacity back to their queue
 * as delayed copies; with `STATE_ARCHIVE_BUCKET`, the S3 archive of the whole states of items sent
 * to review. Built once per instance (at cold start), so the limit and the budget carry
 * over from one invocation to the next, as the AWS SDK's retry quota does per client.
 *
 * @throws PolicyLoadError when the policies do not load.
 */
export async function createDecideDeps(config: DecideConfig, parts: DecideParts = {}): Promise<DecideDeps> {
  const backoff = {
    maxAttempts: config.maxAttempts,
    baseDelayMs: config.retryBaseDelayMs,
    maxDelayMs: config.retryMaxDelayMs,
  };
  const clock = parts.clock;
  // The endpoint's retries are paid from the instance's budget; the outcome store's are not (a
  // DynamoDB write retried does not load the endpoint, and a spent budget must not lose answers).
  const endpointRetry = new RetryPolicy({ ...backoff, budget: new RetryBudget() });
  const retry = new RetryPolicy(backoff);
  const documents = DynamoDBDocumentClient.from(parts.dynamodb ?? new DynamoDBClient({ maxAttempts: 1 }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const { outcomes, jobs } = outcomeWritingOf({
    ...config,
    client: documents,
    retry,
    clock,
    onEnded: parts.onJobEnded,
  });
  const policies = parts.policies ?? (await loadPolicies(config.policyDir));
  const sagemakerRuntime = parts.sagemakerRuntime ?? createSageMakerRuntimeClient();
  const telemetry = new DecideTelemetry(
    parts.logger ?? new Logger(),
    parts.metrics ?? new Metrics(),
    config.lane ?? "interactive",
  );
  const shadow = shadowRunnerOf(config, policies, { sagemakerRuntime, documents, telemetry, clock });
  return {
    policies,
    endpoint: new EndpointClient({
      client: sagemakerRuntime,
      endpointName: config.endpointName,
      ...(config.inferenceComponentName ? { inferenceComponentName: config.inferenceComponentName } : {}),
      retry: endpointRetry,
      limiter: new AdaptiveConcurrencyLimiter({
        maxLimit: config.maxConcurrentGroups,
        ...(clock ? { clock } : {}),
      }),
      latency: new CallLatencyEstimate(),
      customAttributes: laneAttributeOf(config.lane ?? "interactive"),
    }),
    outcomes,
    ...(jobs ? { jobs: { ledger: jobs, maxReceiveCount: config.maxReceiveCount ?? 0 } } : {}),
    // Why a record went back, where `decisions dlq list` and `outcomes show` look (contract/failures).
    failures: new FailureRecordStore({
      client: documents,
      tableName: config.outcomesTable,
      ...(clock ? { clock } : {}),
    }),
    telemetry,
    ...(shadow !== undefined ? { shadow } : {}),
    settings: {
      deadlineMarginMs: config.deadlineMarginMs,
      maxConcurrentGroups: config.maxConcurrentGroups,
      unknownPolicyWaitMs: config.unknownPolicyWaitSeconds * 1000,
    },
    ...(parts.sqs ? { requeuer: new BusyRecordRequeuer({ sqs: parts.sqs }) } : {}),
    ...(clock ? { clock } : {}),
    ...(config.stateArchiveBucket
      ? {
          states: new S3StateArchive({
            s3: parts.s3 ?? new S3Client({}),
            bucket: config.stateArchiveBucket,
            prefix: config.stateArchivePrefix || DEFAULT_STATE_PREFIX,
          }),
        }
      : {}),
  };
}

/**
 * The shadow step, when a loaded policy has a `shadow` section: the candidate endpoint
 * (`SHADOW_ENDPOINT_NAME`) behind a client of its own — the bulk lane, one attempt, no limiter or
 * retry budget shared with the live calls — and the shadow records' store on the outcomes table.
 * None when no policy shadows (nothing is built, nothing is asked).
 */
function shadowRunnerOf(
  config: DecideConfig,
  policies: PolicySet,
  parts: {
    sagemakerRuntime: SageMakerRuntimeClient;
    documents: DynamoDBDocumentClient;
    telemetry: DecideTelemetry;
    clock: Clock | undefined;
  },
): ShadowRunner | undefined {
  if (!policies.names().some((name) => policies.get(name)?.shadow !== undefined)) return undefined;
  const { clock } = parts;
  const endpointName = config.shadowEndpointName ?? "";
  return new ShadowRunner({
    records: new ShadowRecordStore({
      client: parts.documents,
      tableName: config.outcomesTable,
      ...(clock ? { clock } : {}),
    }),
    ...(endpointName !== ""
      ? {
          candidate: new EndpointClient({
            client: parts.sagemakerRuntime,
            endpointName,
            // One attempt: a candidate's failure is recorded, never retried into anyone's budget.
            retry: new RetryPolicy({ maxAttempts: 1 }),
            customAttributes: laneAttributeOf("bulk"),
          }),
        }
      : {}),
    ...(config.shadowTimeoutMs !== undefined ? { budgetMs: config.shadowTimeoutMs } : {}),
    ...(config.shadowMaxConcurrent !== undefined ? { maxConcurrent: config.shadowMaxConcurrent } : {}),
    telemetry: parts.telemetry,
    ...(clock ? { clock } : {}),
  });
}
