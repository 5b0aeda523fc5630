import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { JOBS_LIST_INDEX, JOBS_TABLE_KEYS } from "../../contract/jobs/jobsTableKeys.js";

/**
 * The CreateTable input of the jobs table (PAY_PER_REQUEST, keys `job_id` S + `line` N, the sparse
 * {@link JOBS_LIST_INDEX}), used by tests and the local stack; the CDK table mirrors it.
 */
export function jobsTableDefinition(name: string): CreateTableCommandInput {
  return {
    TableName: name,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: JOBS_TABLE_KEYS.partition, AttributeType: "S" },
      { AttributeName: JOBS_TABLE_KEYS.sort, AttributeType: "N" },
      { AttributeName: JOBS_LIST_INDEX.partition, AttributeType: "S" },
      { AttributeName: JOBS_LIST_INDEX.sort, AttributeType: "S" },
    ],
    KeySchema: [
      { AttributeName: JOBS_TABLE_KEYS.partition, KeyType: "HASH" },
      { AttributeName: JOBS_TABLE_KEYS.sort, KeyType: "RANGE" },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: JOBS_LIST_INDEX.name,
        KeySchema: [
          { AttributeName: JOBS_LIST_INDEX.partition, KeyType: "HASH" },
          { AttributeName: JOBS_LIST_INDEX.sort, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: [...JOBS_LIST_INDEX.projected] },
      },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
  };
}
