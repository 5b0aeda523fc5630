import type { CfnTemplate } from "../../../local/iam/TemplateResolver.js";

/** A template with the resources the local stack maps: two tables, a queue, a bucket. */
export const TEMPLATE: CfnTemplate = {
  Resources: {
    Outcomes: {
      Type: "AWS::DynamoDB::Table",
      Properties: {
        KeySchema: [
          { AttributeName: "policy", KeyType: "HASH" },
          { AttributeName: "id", KeyType: "RANGE" },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: "by-status",
            KeySchema: [
              { AttributeName: "status", KeyType: "HASH" },
              { AttributeName: "updated_at", KeyType: "RANGE" },
            ],
          },
        ],
      },
    },
    Jobs: {
      Type: "AWS::DynamoDB::Table",
      Properties: { TableName: "decisions-jobs", KeySchema: [{ AttributeName: "job_id", KeyType: "HASH" }] },
    },
    WorkQueue: { Type: "AWS::SQS::Queue", Properties: {} },
    Bucket: { Type: "AWS::S3::Bucket", Properties: {} },
  },
};
