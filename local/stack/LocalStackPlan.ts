import type { KeySchemaElement } from "@aws-sdk/client-dynamodb";
import type { Lane } from "../../contract/lanes/lanes.js";

/** A queue as the template declares it (`AWS::SQS::Queue`), with SQS's defaults where it says nothing. */
export interface QueuePlan {
  /** The template's logical id. */
  logicalId: string;
  /** `VisibilityTimeout`, in seconds (SQS's default 30). */
  visibilityTimeoutSeconds: number;
  /** `MessageRetentionPeriod`, in seconds (SQS's default 345,600: 4 days). */
  messageRetentionSeconds: number;
  /** `MaximumMessageSize`, in bytes (SQS's default 262,144). */
  maximumMessageBytes: number;
  /** The redrive policy: after `maxReceiveCount` receives a message moves to the queue of `deadLetterQueue` (a logical id). */
  redrive: { deadLetterQueue: string; maxReceiveCount: number } | undefined;
}

/** An event source mapping as the template declares it (`AWS::Lambda::EventSourceMapping`). */
export interface EventSourcePlan {
  logicalId: string;
  /** The function it invokes (a logical id). */
  functionId: string;
  /** The queue or table it reads (a logical id). */
  sourceId: string;
  /** `BatchSize`: records per invocation (Lambda's default 10 for SQS, 100 for streams). */
  batchSize: number;
  /** `MaximumBatchingWindowInSeconds`, in seconds (default 0). */
  maximumBatchingWindowSeconds: number;
  /** `ScalingConfig.MaximumConcurrency`: invocations at once; undefined when the template sets none. */
  maximumConcurrency: number | undefined;
  /** Whether `FunctionResponseTypes` holds `ReportBatchItemFailures`. */
  reportBatchItemFailures: boolean;
  /** `FilterCriteria.Filters[].Pattern`, as written. */
  filters: string[];
}

/** A function as the template declares it (`AWS::Lambda::Function`). */
export interface FunctionPlan {
  logicalId: string;
  /** `Timeout`, in seconds (Lambda's default 3). */
  timeoutSeconds: number;
  /** `MemorySize`, in MB (Lambda's default 128). */
  memoryMb: number;
  /** The names of its environment variables, sorted. */
  environmentNames: string[];
}

/** A table as the template declares it (`AWS::DynamoDB::Table`). */
export interface TablePlan {
  logicalId: string;
  keySchema: KeySchemaElement[];
  attributeDefinitions: { AttributeName: string; AttributeType: "S" | "N" | "B" }[];
  globalSecondaryIndexes: {
    IndexName: string;
    KeySchema: KeySchemaElement[];
    Projection: { ProjectionType: "ALL" | "KEYS_ONLY" | "INCLUDE"; NonKeyAttributes?: string[] };
  }[];
  /** The TTL attribute, when TTL is enabled. */
  timeToLiveAttribute: string | undefined;
  /** `StreamSpecification.StreamViewType`, when the table has a stream. */
  streamViewType: "NEW_IMAGE" | "OLD_IMAGE" | "NEW_AND_OLD_IMAGES" | "KEYS_ONLY" | undefined;
}

/** One lane of the template: its work queue, DLQ, decide function and the mapping between them. */
export interface LanePlan {
  queue: QueuePlan;
  deadLetterQueue: QueuePlan;
  function: FunctionPlan;
  eventSource: EventSourcePlan;
}

/** A pseudo parameter a definition may name (`{"Ref": "AWS::Partition"}`). */
export type PseudoParameter = "AWS::Partition" | "AWS::Region" | "AWS::AccountId" | "AWS::URLSuffix";

/**
 * One piece of a state machine's `DefinitionString` as the template writes it (the list its
 * `Fn::Join` joins with ""): text as written, a pseudo parameter, or the ARN of a function of the
 * template (`{"Fn::GetAtt": [<id>, "Arn"]}`, by its logical id).
 */
export type DefinitionPiece = string | { pseudoParameter: PseudoParameter } | { functionArn: string };

/** A state machine as the template declares it (`AWS::StepFunctions::StateMachine`). */
export interface StateMachinePlan {
  logicalId: string;
  /** Its `DefinitionString`, piece by piece: joined, it is the ASL definition Step Functions runs. */
  definition: DefinitionPiece[];
}

/** A route of an HTTP API as the template declares it (`AWS::ApiGatewayV2::Route`). */
export interface RoutePlan {
  logicalId: string;
  /** Its `RouteKey` as written: `GET /api/me`, `ANY /{proxy+}`, `$default`. */
  routeKey: string;
}

/** The ingest path: the S3 "Object Created" rule, the state machine it starts and the function that runs. */
export interface IngestPlan {
  /** The function the ingest state machine invokes. */
  function: FunctionPlan;
  /** The state machine the rule starts: the local ingest runs its definition (`runIngestWorkflow`). */
  stateMachine: StateMachinePlan;
  /** The rule's key pattern split at its wildcard: keys starting with `prefix` and ending with `suffix`. */
  prefix: string;
  suffix: string;
}

/**
 * What the local stack takes from the synthesized template (`readStackTemplate`): per lane its
 * queues, decide function and event source; every function and event source mapping; the outcomes
 * and jobs tables; the ingest rule and state machine; the review console's HTTP API routes.
 */
export interface LocalStackPlan {
  lanes: Record<Lane, LanePlan>;
  /** Every function of the template, by logical id. */
  functions: Record<string, FunctionPlan>;
  /** Every event source mapping of the template, by logical id. */
  eventSources: Record<string, EventSourcePlan>;
  tables: { outcomes: TablePlan; jobs: TablePlan };
  ingest: IngestPlan;
  /**
   * The routes of the template's HTTP API (the review console's): the local console answers these
   * and API Gateway's 404 for anything else (`startReviewServer`'s `routes`).
   */
  consoleRoutes: RoutePlan[];
}
