/** The IAM requests an SDK call makes, with the template's deployed names and the condition keys AWS sets. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DeployedNames } from "../../../local/iam/DeployedNames.js";
import { iamRequestsOf } from "../../../local/iam/iamRequestsOf.js";
import { deployTargetOf, TemplateResolver } from "../../../local/iam/TemplateResolver.js";
import { TEMPLATE } from "./iamTemplate.js";

const resolver = new TemplateResolver(TEMPLATE, deployTargetOf("Decisions"));
const names = new DeployedNames(resolver, {
  tables: { outcomes: "Outcomes", jobs: "Jobs" },
  queues: { "work-interactive": "WorkQueue" },
  buckets: { ingest: "Bucket" },
  endpoints: { decisions: "Decisions-decisions-52AB4287" },
});
const OUTCOMES = resolver.arnOf("Outcomes");
const JOBS = "arn:aws:dynamodb:us-east-1:111122223333:table/decisions-jobs";
const BUCKET = resolver.physicalName("Bucket");

const requestsOf = (client: string, command: string, input: Record<string, unknown>) =>
  iamRequestsOf({ clientName: client, commandName: `${command}Command`, input }, names);

describe("iamRequestsOf", () => {
  it("checks an item call on the deployed table's ARN with the partition key's value as dynamodb:LeadingKeys", () => {
    assert.deepEqual(
      requestsOf("DynamoDBClient", "PutItem", {
        TableName: "outcomes",
        Item: { policy: { S: "ticket-routing" }, id: { S: "T-1" } },
      }),
      [
        {
          action: "dynamodb:PutItem",
          resource: OUTCOMES,
          context: { "dynamodb:LeadingKeys": ["ticket-routing"] },
        },
      ],
    );
    assert.match(
      OUTCOMES,
      /^arn:aws:dynamodb:us-east-1:111122223333:table\/Decisions-Outcomes-[0-9A-F]{12}$/,
    );
    // A document client's input, seen before it is marshalled.
    assert.deepEqual(
      requestsOf("DynamoDBClient", "GetItem", {
        TableName: "outcomes",
        Key: { policy: "_shadow#p", id: "x" },
      })[0]?.context,
      { "dynamodb:LeadingKeys": ["_shadow#p"] },
    );
  });

  it("checks a Query on an index on the index's ARN, its partition as the key condition names it", () => {
    assert.deepEqual(
      requestsOf("DynamoDBClient", "Query", {
        TableName: "outcomes",
        IndexName: "by-status",
        KeyConditionExpression: "#s = :s AND updated_at > :t",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":s": { S: "fallback" }, ":t": { S: "2026" } },
      }),
      [
        {
          action: "dynamodb:Query",
          resource: `${OUTCOMES}/index/by-status`,
          context: { "dynamodb:LeadingKeys": ["fallback"] },
        },
      ],
    );
    assert.deepEqual(
      requestsOf("DynamoDBClient", "Query", {
        TableName: "outcomes",
        KeyConditionExpression: ":p = policy",
        ExpressionAttributeValues: { ":p": "ticket-routing" },
      })[0]?.context,
      { "dynamodb:LeadingKeys": ["ticket-routing"] },
    );
  });

  it("checks each item of a transaction as its own action on its own table", () => {
    assert.deepEqual(
      requestsOf("DynamoDBClient", "TransactWriteItems", {
        TransactItems: [
          { Put: { TableName: "outcomes", Item: { policy: { S: "p" }, id: { S: "1" } } } },
          { Update: { TableName: "jobs", Key: { job_id: { S: "j-1" } } } },
          { ConditionCheck: { TableName: "jobs", Key: { job_id: { S: "j-2" } } } },
        ],
      }),
      [
        { action: "dynamodb:PutItem", resource: OUTCOMES, context: { "dynamodb:LeadingKeys": ["p"] } },
        { action: "dynamodb:UpdateItem", resource: JOBS, context: { "dynamodb:LeadingKeys": ["j-1"] } },
        {
          action: "dynamodb:ConditionCheckItem",
          resource: JOBS,
          context: { "dynamodb:LeadingKeys": ["j-2"] },
        },
      ],
    );
    assert.deepEqual(
      requestsOf("DynamoDBClient", "TransactGetItems", {
        TransactItems: [{ Get: { TableName: "jobs", Key: { job_id: { S: "j-1" } } } }],
      }).map((request) => request.action),
      ["dynamodb:GetItem"],
    );
  });

  it("checks a batch once per table, with every partition it touches", () => {
    assert.deepEqual(
      requestsOf("DynamoDBClient", "BatchWriteItem", {
        RequestItems: {
          outcomes: [
            { PutRequest: { Item: { policy: { S: "a" }, id: { S: "1" } } } },
            { DeleteRequest: { Key: { policy: { S: "b" }, id: { S: "2" } } } },
            { PutRequest: { Item: { policy: { S: "a" }, id: { S: "3" } } } },
          ],
          jobs: [{ PutRequest: { Item: { job_id: { S: "j" } } } }],
        },
      }),
      [
        {
          action: "dynamodb:BatchWriteItem",
          resource: OUTCOMES,
          context: { "dynamodb:LeadingKeys": ["a", "b"] },
        },
        { action: "dynamodb:BatchWriteItem", resource: JOBS, context: { "dynamodb:LeadingKeys": ["j"] } },
      ],
    );
  });

  it("names SQS queues by their deployed ARN, a batch action as its single action", () => {
    const queue = resolver.arnOf("WorkQueue");
    for (const [command, action] of [
      ["SendMessageBatch", "sqs:SendMessage"],
      ["DeleteMessageBatch", "sqs:DeleteMessage"],
      ["ChangeMessageVisibilityBatch", "sqs:ChangeMessageVisibility"],
      ["ReceiveMessage", "sqs:ReceiveMessage"],
    ] as const)
      assert.deepEqual(
        requestsOf("SQSClient", command, { QueueUrl: "http://127.0.0.1:4566/000000000000/work-interactive" }),
        [{ action, resource: queue, context: {} }],
      );
    // A queue the template does not hold keeps its local name (and no grant names it).
    assert.equal(
      requestsOf("SQSClient", "SendMessage", { QueueUrl: "http://127.0.0.1:1/000000000000/elsewhere" })[0]
        ?.resource,
      "arn:aws:sqs:us-east-1:111122223333:elsewhere",
    );
  });

  it("names S3 objects in the deployed bucket; a multipart upload is s3:PutObject, a listing s3:ListBucket", () => {
    const object = `arn:aws:s3:::${BUCKET}/results/j-1/results.jsonl`;
    for (const command of ["PutObject", "CreateMultipartUpload", "UploadPart", "CompleteMultipartUpload"])
      assert.deepEqual(
        requestsOf("S3Client", command, { Bucket: "ingest", Key: "results/j-1/results.jsonl" }),
        [{ action: "s3:PutObject", resource: object, context: {} }],
      );
    assert.equal(
      requestsOf("S3Client", "GetObject", { Bucket: "ingest", Key: "incoming/a.jsonl", VersionId: "v1" })[0]
        ?.action,
      "s3:GetObjectVersion",
    );
    assert.equal(
      requestsOf("S3Client", "HeadObject", { Bucket: "ingest", Key: "incoming/a.jsonl" })[0]?.action,
      "s3:GetObject",
    );
    assert.deepEqual(requestsOf("S3Client", "ListObjectsV2", { Bucket: "ingest", Prefix: "results/" }), [
      { action: "s3:ListBucket", resource: `arn:aws:s3:::${BUCKET}`, context: { "s3:prefix": "results/" } },
    ]);
  });

  it("names a SageMaker endpoint by its deployed name in lower case, and a component it names", () => {
    assert.deepEqual(
      requestsOf("SageMakerRuntimeClient", "InvokeEndpoint", {
        EndpointName: "decisions",
        InferenceComponentName: "Lane-Bulk",
      }),
      [
        {
          action: "sagemaker:InvokeEndpoint",
          resource: "arn:aws:sagemaker:us-east-1:111122223333:endpoint/decisions-decisions-52ab4287",
          context: {},
        },
        {
          action: "sagemaker:InvokeEndpoint",
          resource: "arn:aws:sagemaker:us-east-1:111122223333:inference-component/lane-bulk",
          context: {},
        },
      ],
    );
  });

  it("checks a call it has no mapping for as its operation on *", () => {
    assert.deepEqual(requestsOf("SQSClient", "ListQueues", {}), [
      { action: "sqs:ListQueues", resource: "*", context: {} },
    ]);
    assert.deepEqual(requestsOf("KinesisClient", "PutRecord", { StreamName: "s" }), [
      { action: "kinesis:PutRecord", resource: "*", context: {} },
    ]);
  });
  it("checks the event source mapping calls on the mapping's ARN, and anything else of Lambda on *", () => {
    for (const command of ["GetEventSourceMapping", "UpdateEventSourceMapping"])
      assert.deepEqual(requestsOf("LambdaClient", command, { UUID: "0f6c1e2a-uuid" }), [
        {
          action: `lambda:${command}`,
          resource: "arn:aws:lambda:us-east-1:111122223333:event-source-mapping:0f6c1e2a-uuid",
          context: {},
        },
      ]);
    assert.deepEqual(requestsOf("LambdaClient", "ListFunctions", {}), [
      { action: "lambda:ListFunctions", resource: "*", context: {} },
    ]);
  });
});

describe("TemplateResolver's names", () => {
  it("gives an inference component the name its InferenceComponentName states (what DescribeInferenceComponent is called with)", () => {
    const template = {
      Resources: {
        Bulk: {
          Type: "AWS::SageMaker::InferenceComponent",
          Properties: { InferenceComponentName: { "Fn::Join": ["", [{ Ref: "AWS::StackName" }, "-bulk"]] } },
        },
      },
    };
    const named = new TemplateResolver(template, deployTargetOf("decisions"));
    assert.equal(named.physicalName("Bulk"), "decisions-bulk");
  });
});
