import {
  JOB_RESULTS_PREFIX,
  JOBS_LIST_INDEX,
  OUTCOMES_STATUS_INDEX,
  shadowPartitionOf,
} from "../../contract/index.js";
import { queueArnOfUrl as queueArnOf, sageMakerArn, tableArn as tableArnOf } from "../../local/iam/arns.js";
import type { TemplateResolver } from "../../local/iam/TemplateResolver.js";
import type { TemplateFunctionName } from "../../local/iam/templateFunctions.js";

/** One AWS call a function makes, as IAM sees it: the action, the ARN AWS forms, the condition keys AWS sets. */
export interface DeclaredCall {
  action: string;
  resource: string;
  /** Condition keys of the request (e.g. `dynamodb:LeadingKeys`), as AWS sets them for this call. */
  context?: Record<string, string | string[]>;
  /** What in the code makes it. */
  why: string;
}

/** A deployed function as the template states it, resolved: what the declared calls are derived from. */
export interface FunctionView {
  /** The function's logical id. */
  logicalId: string;
  /** Its environment, every value resolved. */
  environment: Readonly<Record<string, string>>;
  /** Its event source mappings: the source's ARN and the mapping's own ARN. */
  eventSources: readonly { sourceArn: string; mappingArn: string }[];
  resolver: TemplateResolver;
}

/** The calls of one deployed function, derived from its view. */
export interface DeployedFunction {
  /**
   * Its name in findings (the folder under `functions/`, with the lane for the decide functions);
   * the template's function of that name is found by `TEMPLATE_FUNCTIONS` (`local/iam`).
   */
  name: TemplateFunctionName;
  calls(view: FunctionView): DeclaredCall[];
}

/** The ARN SageMaker forms for an endpoint: its name in lower case. */
function endpointArn(view: FunctionView, name: string): string {
  return sageMakerArn(view.resolver.target, "endpoint", name);
}

/** The ARN SageMaker forms for an inference component: its name in lower case. */
function componentArn(view: FunctionView, name: string): string {
  return sageMakerArn(view.resolver.target, "inference-component", name);
}

function tableArn(view: FunctionView, name: string): string {
  return tableArnOf(view.resolver.target, name);
}

/** A queue's ARN from its URL (`https://sqs.<region>.amazonaws.com/<account>/<name>`). */
function queueArnOfUrl(view: FunctionView, url: string): string {
  return queueArnOf(view.resolver.target, url);
}

function variable(view: FunctionView, name: string): string {
  const value = view.environment[name];
  if (value === undefined) throw new Error(`${view.logicalId} has no ${name} in its environment`);
  return value;
}

/** The actions Lambda's SQS event source makes with the function's role. */
const SQS_EVENT_SOURCE_ACTIONS = [
  "sqs:ReceiveMessage",
  "sqs:DeleteMessage",
  "sqs:ChangeMessageVisibility",
  "sqs:GetQueueAttributes",
];

/** The actions Lambda's DynamoDB stream event source makes with the function's role. */
const STREAM_EVENT_SOURCE_ACTIONS = [
  "dynamodb:DescribeStream",
  "dynamodb:GetRecords",
  "dynamodb:GetShardIterator",
];

/** The ingest bucket and its object prefix, as the ingest rule's pattern names them. */
function ingestObjects(view: FunctionView): { bucket: string; prefix: string } {
  for (const id of view.resolver.logicalIdsOf("AWS::Events::Rule")) {
    const pattern = view.resolver.resolve(view.resolver.resource(id).Properties?.EventPattern) as
      | {
          source?: string[];
          detail?: { bucket?: { name?: string[] }; object?: { key?: { wildcard?: string }[] } };
        }
      | undefined;
    const bucket = pattern?.detail?.bucket?.name?.[0];
    if (pattern?.source?.includes("aws.s3") && bucket !== undefined) {
      const wildcard = pattern.detail?.object?.key?.[0]?.wildcard ?? "";
      return { bucket, prefix: wildcard.split("*")[0] ?? "" };
    }
  }
  throw new Error("the template has no rule on the ingest bucket's Object Created events");
}

function decideCalls(view: FunctionView): DeclaredCall[] {
  const outcomes = tableArn(view, variable(view, "OUTCOMES_TABLE"));
  const jobs = tableArn(view, variable(view, "JOBS_TABLE"));
  const { partition } = view.resolver.target;
  const archive = `arn:${partition}:s3:::${variable(view, "STATE_ARCHIVE_BUCKET")}/${variable(view, "STATE_ARCHIVE_PREFIX")}0123abcd.json`;
  const calls: DeclaredCall[] = [
    {
      action: "sagemaker:InvokeEndpoint",
      resource: endpointArn(view, variable(view, "ENDPOINT_NAME")),
      why: "EndpointClient",
    },
    ...["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"].map((action) => ({
      action,
      resource: outcomes,
      why: "OutcomeStore, FailureRecordStore",
    })),
    {
      action: "dynamodb:Query",
      resource: `${outcomes}/index/${OUTCOMES_STATUS_INDEX.name}`,
      why: "OutcomeStore (the by-status index)",
    },
    ...["dynamodb:PutItem", "dynamodb:UpdateItem"].map((action) => ({
      action,
      resource: jobs,
      why: "the job ledger's writes",
    })),
    { action: "s3:PutObject", resource: archive, why: "S3StateArchive" },
  ];
  const component = view.environment.INFERENCE_COMPONENT_NAME;
  if (component !== undefined)
    calls.push({
      action: "sagemaker:InvokeEndpoint",
      resource: componentArn(view, component),
      why: "EndpointClient (InferenceComponentName, layout=lanes-from-zero)",
    });
  const shadow = view.environment.SHADOW_ENDPOINT_NAME;
  if (shadow !== undefined)
    calls.push({
      action: "sagemaker:InvokeEndpoint",
      resource: endpointArn(view, shadow),
      why: "the shadow step",
    });
  for (const source of view.eventSources) {
    for (const action of SQS_EVENT_SOURCE_ACTIONS)
      calls.push({ action, resource: source.sourceArn, why: "Lambda's SQS event source" });
    for (const action of ["sqs:GetQueueUrl", "sqs:SendMessage"])
      calls.push({ action, resource: source.sourceArn, why: "BusyRecordRequeuer (its own queue)" });
  }
  return calls;
}

/**
 * Every deployed function and the AWS calls its code makes, each derived from what the template
 * gives the function (its environment, its event sources, the ingest rule): the list the rehearsal
 * authorizes against the function's role. A call added to the code is added here.
 */
export const DEPLOYED_FUNCTIONS: readonly DeployedFunction[] = [
  { name: "decide (interactive)", calls: decideCalls },
  { name: "decide (bulk)", calls: decideCalls },
  {
    name: "ingest",
    calls: (view) => {
      const { bucket, prefix } = ingestObjects(view);
      const object = `arn:${view.resolver.target.partition}:s3:::${bucket}/${prefix}batch.jsonl`;
      const outcomes = tableArn(view, variable(view, "OUTCOMES_TABLE"));
      const jobs = tableArn(view, variable(view, "JOBS_TABLE"));
      return [
        { action: "s3:GetObject", resource: object, why: "getObjectVersion" },
        { action: "s3:GetObjectVersion", resource: object, why: "getObjectVersion (a versioned read)" },
        {
          action: "sqs:SendMessage",
          resource: queueArnOfUrl(view, variable(view, "WORK_QUEUE_URL")),
          why: "WorkQueueSender (SendMessageBatch)",
        },
        { action: "dynamodb:GetItem", resource: outcomes, why: "known outcomes of the batch's items" },
        { action: "dynamodb:PutItem", resource: outcomes, why: "outcomes of lines refused at ingest" },
        ...["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"].map((action) => ({
          action,
          resource: jobs,
          why: "the job record and its lines",
        })),
      ];
    },
  },
  {
    name: "results",
    calls: (view) => {
      const jobs = tableArn(view, variable(view, "JOBS_TABLE"));
      const { bucket } = ingestObjects(view);
      const results = `arn:${view.resolver.target.partition}:s3:::${bucket}/${JOB_RESULTS_PREFIX}job-1/results.jsonl`;
      return [
        ...["dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem"].map((action) => ({
          action,
          resource: jobs,
          why: "JobResultsWriter",
        })),
        ...["s3:PutObject", "s3:AbortMultipartUpload"].map((action) => ({
          action,
          resource: results,
          why: "JobResultsWriter (multipart upload)",
        })),
        ...view.eventSources.flatMap((source) =>
          STREAM_EVENT_SOURCE_ACTIONS.map((action) => ({
            action,
            resource: source.sourceArn,
            why: "Lambda's DynamoDB stream event source",
          })),
        ),
      ];
    },
  },
  {
    name: "jobsMonitor",
    calls: (view) => {
      const jobs = tableArn(view, variable(view, "JOBS_TABLE"));
      return [
        { action: "dynamodb:Query", resource: jobs, why: "JobsReader (a job's lines)" },
        {
          action: "dynamodb:Query",
          resource: `${jobs}/index/${JOBS_LIST_INDEX.name}`,
          why: "JobsReader (the jobs list)",
        },
      ];
    },
  },
  {
    name: "capacityController",
    calls: (view) => {
      const { partition, region, account } = view.resolver.target;
      const mapping = (uuid: string) =>
        `arn:${partition}:lambda:${region}:${account}:event-source-mapping:${uuid}`;
      return [
        {
          action: "sagemaker:DescribeEndpoint",
          resource: endpointArn(view, variable(view, "ENDPOINT_NAME")),
          why: "SageMakerEndpointReader",
        },
        ...["INTERACTIVE_COMPONENT_NAME", "BULK_COMPONENT_NAME"].flatMap((name) => {
          const component = view.environment[name];
          return component === undefined
            ? []
            : [
                {
                  action: "sagemaker:DescribeInferenceComponent",
                  resource: componentArn(view, component),
                  why: "SageMakerComponentReader (layout=lanes-from-zero)",
                },
              ];
        }),
        ...["INTERACTIVE_QUEUE_URL", "BULK_QUEUE_URL"].map((name) => ({
          action: "sqs:GetQueueAttributes",
          resource: queueArnOfUrl(view, variable(view, name)),
          why: "SqsBacklogReader",
        })),
        ...["INTERACTIVE_EVENT_SOURCE_UUID", "BULK_EVENT_SOURCE_UUID"].flatMap((name) =>
          ["lambda:GetEventSourceMapping", "lambda:UpdateEventSourceMapping"].map((action) => ({
            action,
            resource: mapping(variable(view, name)),
            why: "LambdaEventSourceConcurrency",
          })),
        ),
      ];
    },
  },
  {
    name: "reviewConsole",
    calls: (view) => {
      const outcomes = tableArn(view, variable(view, "OUTCOMES_TABLE"));
      const policy = "ticket-routing";
      const onPartition = (key: string, why: string) =>
        ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query"].map((action) => ({
          action,
          resource: outcomes,
          context: { "dynamodb:LeadingKeys": [key] },
          why,
        }));
      return [
        ...onPartition(policy, "ReviewApi (items, reviews, a policy's outcomes)"),
        {
          action: "dynamodb:Query",
          resource: outcomes,
          context: { "dynamodb:LeadingKeys": [shadowPartitionOf(policy)] },
          why: "the shadow panel (ShadowRecordStore)",
        },
        {
          action: "dynamodb:Query",
          resource: `${outcomes}/index/${OUTCOMES_STATUS_INDEX.name}`,
          why: "the review queue",
        },
      ];
    },
  },
  {
    name: "frontDoor",
    calls: (view) => {
      const idempotency = tableArn(view, variable(view, "IDEMPOTENCY_TABLE"));
      return [
        ...["INTERACTIVE_QUEUE_URL", "BULK_QUEUE_URL"].map((name) => ({
          action: "sqs:SendMessage",
          resource: queueArnOfUrl(view, variable(view, name)),
          why: "acceptWorkItems (SendMessageBatch to the policy's lane)",
        })),
        ...["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"].map(
          (action) => ({
            action,
            resource: idempotency,
            why: "IntakeIdempotency (Powertools' DynamoDB persistence layer)",
          }),
        ),
      ];
    },
  },
  {
    name: "driftMonitor",
    calls: (view) => [
      {
        action: "dynamodb:Query",
        resource: `${tableArn(view, variable(view, "OUTCOMES_TABLE"))}/index/${OUTCOMES_STATUS_INDEX.name}`,
        why: "OutcomesReader",
      },
    ],
  },
  { name: "jobEvents", calls: () => [] },
  {
    name: "deliver",
    calls: (view) => {
      const dlqUrls = JSON.parse(variable(view, "DELIVERY_DLQ_URLS")) as Record<string, string>;
      return [
        ...view.eventSources.flatMap(({ sourceArn }) =>
          ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"].map((action) => ({
            action,
            resource: sourceArn,
            why: "the delivery queue's event source; deliverRecords hides a record until its retry",
          })),
        ),
        ...Object.values(dlqUrls).map((url) => ({
          action: "sqs:SendMessage",
          resource: queueArnOfUrl(view, url),
          why: "DeliveryDlq.put (a delivery given up on, with its reason)",
        })),
      ];
    },
  },
];
