import type { CreateTableCommandInput, Projection, ScalarAttributeType } from "@aws-sdk/client-dynamodb";

/** The shape of a {@link streamedTableDefinition}: its keys and its one secondary index. */
export interface StreamedTableShape {
  /** Partition and sort key of the table, and the sort key's type (the partition key is S). */
  keys: { partition: string; sort: string; sortType: ScalarAttributeType };
  /** The global secondary index (partition and sort key both S) and what it projects. */
  index: { name: string; partition: string; sort: string; projection: Projection };
}

/**
 * The CreateTable input of a table as this project's tables are made (PAY_PER_REQUEST, one global
 * secondary index, a NEW_AND_OLD_IMAGES stream): the outcomes and the jobs tables, used by tests
 * and the local stack; the CDK tables mirror it.
 *
 * @example streamedTableDefinition("jobs", { keys: { partition: "job_id", sort: "line", sortType: "N" }, index })
 */
export function streamedTableDefinition(name: string, shape: StreamedTableShape): CreateTableCommandInput {
  const { keys, index } = shape;
  return {
    TableName: name,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: keys.partition, AttributeType: "S" },
      { AttributeName: keys.sort, AttributeType: keys.sortType },
      { AttributeName: index.partition, AttributeType: "S" },
      { AttributeName: index.sort, AttributeType: "S" },
    ],
    KeySchema: [
      { AttributeName: keys.partition, KeyType: "HASH" },
      { AttributeName: keys.sort, KeyType: "RANGE" },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partition, KeyType: "HASH" },
          { AttributeName: index.sort, KeyType: "RANGE" },
        ],
        Projection: index.projection,
      },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
  };
}
