import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { OUTCOMES_STATUS_INDEX, OUTCOMES_TABLE_KEYS } from "../../contract/outcome/outcomesTableKeys.js";

/**
 * The CreateTable input of the outcomes table (PAY_PER_REQUEST, stream NEW_AND_OLD_IMAGES, the
 * {@link OUTCOMES_STATUS_INDEX}), used by tests and the local stack; the CDK table mirrors it.
 */
export function outcomesTableDefinition(name: string): CreateTableCommandInput {
  return {
    TableName: name,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: OUTCOMES_TABLE_KEYS.partition, AttributeType: "S" },
      { AttributeName: OUTCOMES_TABLE_KEYS.sort, AttributeType: "S" },
      { AttributeName: OUTCOMES_STATUS_INDEX.partition, AttributeType: "S" },
      { AttributeName: OUTCOMES_STATUS_INDEX.sort, AttributeType: "S" },
    ],
    KeySchema: [
      { AttributeName: OUTCOMES_TABLE_KEYS.partition, KeyType: "HASH" },
      { AttributeName: OUTCOMES_TABLE_KEYS.sort, KeyType: "RANGE" },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: OUTCOMES_STATUS_INDEX.name,
        KeySchema: [
          { AttributeName: OUTCOMES_STATUS_INDEX.partition, KeyType: "HASH" },
          { AttributeName: OUTCOMES_STATUS_INDEX.sort, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
  };
}
